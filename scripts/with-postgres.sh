#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL: KARAKURI_TEST_DATABASE_URL points at it.
#
#   scripts/with-postgres.sh .venv/bin/python -m pytest -q
#
# initdb in a temporary directory, listening on 127.0.0.1 only on a free port
# (its unix socket in the same directory), one database `karakuri_test`;
# stopped and deleted when the command ends, however it ends. PostgreSQL
# refuses to run as root, so as root the server runs as the `postgres` system
# user. Installs PostgreSQL with apt-get when `initdb` is missing and apt-get exists.
set -euo pipefail

find_bin() {
    local name=$1 dir
    if command -v "$name" > /dev/null; then command -v "$name"; return; fi
    for dir in /usr/lib/postgresql/*/bin; do
        if [ -x "$dir/$name" ]; then echo "$dir/$name"; return; fi
    done
    return 1
}

if ! find_bin initdb > /dev/null; then
    if command -v apt-get > /dev/null && [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql > /dev/null
    else
        echo "with-postgres: initdb not found; install PostgreSQL (apt-get install postgresql)" >&2
        exit 1
    fi
fi
INITDB=$(find_bin initdb)
PG_CTL=$(find_bin pg_ctl)

RUN_AS=()
if [ "$(id -u)" = 0 ]; then
    RUN_AS=(runuser -u postgres --)
fi

DATA=$(mktemp -d "${TMPDIR:-/tmp}/karakuri-pg.XXXXXX")
chmod 0700 "$DATA"
[ ${#RUN_AS[@]} -eq 0 ] || chown postgres "$DATA"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    "${RUN_AS[@]}" "$PG_CTL" -D "$DATA/db" -m immediate stop > /dev/null 2>&1 || true
    rm -rf "$DATA"
}
trap stop EXIT

"${RUN_AS[@]}" "$INITDB" -D "$DATA/db" -U karakuri --auth=trust --no-instructions > "$DATA/initdb.log" 2>&1 \
    || { cat "$DATA/initdb.log" >&2; exit 1; }
"${RUN_AS[@]}" "$PG_CTL" -D "$DATA/db" -l "$DATA/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DATA" start > /dev/null \
    || { cat "$DATA/server.log" >&2; exit 1; }
"${RUN_AS[@]}" "$(find_bin createdb)" -h 127.0.0.1 -p "$PORT" -U karakuri karakuri_test

export KARAKURI_TEST_DATABASE_URL="postgresql://karakuri@127.0.0.1:$PORT/karakuri_test"
export KARAKURI_TEST_PG_DATA="$DATA/db" KARAKURI_TEST_PG_CTL="$PG_CTL"
echo "with-postgres: PostgreSQL on 127.0.0.1:$PORT (data in $DATA)" >&2
"$@"
