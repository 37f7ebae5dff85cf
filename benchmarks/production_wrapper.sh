#!/usr/bin/env bash
# A production-like wrapper: what an LLM runtime runs for one Discord message when it drives the
# world without karakuri-agent, written the way such wrappers are (bash in strict mode, curl with
# the status code read back, jq for the JSON an LLM is shown, node for the tool call's arguments).
# No decision, no state, no memory, no report: the model decides between the two calls. It is the
# baseline a one-shot `karakuri-agent handle` (fetch, decide, claim, act, record, report) and
# `karakuri get_notification` are compared with in benchmarks/bench_oneshot.py.
#
# Usage: KARAKURI_API_BASE_URL=... KARAKURI_API_KEY=... production_wrapper.sh fetch NOTIFICATION_ID
#        KARAKURI_API_BASE_URL=... KARAKURI_API_KEY=... production_wrapper.sh command NOTIFICATION_ID COMMAND [PARAMS_JSON]
set -euo pipefail

base="${KARAKURI_API_BASE_URL%/}"
# The key goes to curl on stdin, not on its command line (where `ps` would show it).
auth() { printf 'Authorization: Bearer %s\n' "$KARAKURI_API_KEY"; }

# One request; the body on stdout, false unless the status is 2xx.
request() {
    local response code
    response=$(auth | curl -sS -H @- -w '\n%{http_code}' "$@")
    code="${response##*$'\n'}"
    printf '%s\n' "${response%$'\n'"$code"}"
    [ "$code" -ge 200 ] && [ "$code" -lt 300 ]
}

case "${1:-}" in
    fetch)
        # What the model reads: the notification's text and its choices.
        request "$base/agents/notifications/$2" | jq '{notification_id, text: .notification.text, choices: [.notification.choices[].command]}'
        ;;
    command)
        # The tool call's arguments checked and the body built as the runtime does, in JavaScript.
        body=$(node -e '
            const [id, command, params] = process.argv.slice(1);
            const parsed = JSON.parse(params);
            if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("params: not an object");
            process.stdout.write(JSON.stringify({notification_id: id, command, params: parsed}));
        ' "$2" "$3" "${4:-{\}}")
        request -X POST -H 'Content-Type: application/json' -d "$body" "$base/agents/command" | jq -c .
        ;;
    *)
        echo "usage: $0 fetch ID | command ID COMMAND [PARAMS_JSON]" >&2
        exit 2
        ;;
esac
