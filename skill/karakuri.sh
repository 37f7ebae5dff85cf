#!/bin/sh
# Compatibility shim: runtimes that call skill/karakuri.sh get the installed
# `karakuri` CLI (get_notification / command) with the same arguments.
set -eu
exec karakuri "$@"
