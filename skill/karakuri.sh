#!/bin/sh
# Compatibility shim: runtimes that call skill/karakuri.sh get the installed
# `karakuri` CLI (get_notification / command) with the same arguments.
# Looked for next to this script, then in the project's .venv, then on PATH.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
for candidate in "$here/karakuri" "$here/../.venv/bin/karakuri"; do
    if [ -x "$candidate" ]; then
        exec "$candidate" "$@"
    fi
done
if command -v karakuri >/dev/null 2>&1; then
    exec karakuri "$@"
fi
echo "karakuri.sh: karakuri is not installed; run: python3 -m venv .venv && .venv/bin/pip install . (in the project directory)" >&2
exit 127
