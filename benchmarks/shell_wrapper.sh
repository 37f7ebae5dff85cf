#!/bin/sh
# A production-like shell wrapper, as bare as one can be: read the notification id from
# the Discord message, fetch the notification, send one command. No decision, no state,
# no report: the least a per-message process can do, so it is the baseline the resident
# mode (`karakuri-agent listen`) is compared with in benchmarks/bench_listen.py.
#
# Usage: KARAKURI_API_BASE_URL=... KARAKURI_API_KEY=... shell_wrapper.sh "<message body>" [command]
set -eu
id=$(printf '%s\n' "$1" | grep -oE 'notif-[A-Za-z0-9_-]+' | head -n 1) || true
[ -n "$id" ] || exit 0
# The key goes to curl on stdin, not on its command line (where `ps` would show it).
auth() { printf 'Authorization: Bearer %s\n' "$KARAKURI_API_KEY"; }
auth | curl -fsS -H @- "$KARAKURI_API_BASE_URL/agents/notifications/$id" > /dev/null
auth | curl -fsS -X POST -H @- -H 'Content-Type: application/json' \
    -d "{\"notification_id\": \"$id\", \"command\": \"${2:-conversation_reject}\", \"params\": {}}" \
    "$KARAKURI_API_BASE_URL/agents/command" > /dev/null
