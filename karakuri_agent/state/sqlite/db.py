"""The SQLite file in the state directory, and its numbered migrations.

Several processes may open it at once (one per Discord message), so: WAL mode,
a busy timeout, `BEGIN IMMEDIATE` for every write transaction, and
migrations applied under that lock and recorded in `schema_migrations` (the
simonw/llm way: each migration is a numbered function, applied once, in
order). `synchronous=FULL` because a ledger claim must survive a power cut,
not only a crash: a lost claim could mean a second command. The store's
grouped writes opt out per transaction (`transaction(wait_for_disk=False)`):
the claim's own sync carries them to disk with it.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.errors import ConfigError, StateBusy, StateUnavailable
from karakuri_agent.state.sqlite.guard import mapped, open_guarded
from karakuri_agent.state.values import utc_text

DB_FILENAME = "karakuri.db"
PAGE_CACHE_KIB = 512
BUSY_TIMEOUT_MS = 15_000


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run statements one by one: executescript() would COMMIT the migration lock early."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def _m001_initial(conn: sqlite3.Connection) -> None:
    _run_script(
        conn,
        """
        CREATE TABLE notifications (
            notification_id TEXT PRIMARY KEY,
            fetched_at TEXT NOT NULL,
            body TEXT NOT NULL
        );
        -- The ledger: one row per notification ever acted on. Rows are never deleted.
        CREATE TABLE attempts (
            notification_id TEXT PRIMARY KEY,
            command TEXT NOT NULL,
            params TEXT NOT NULL,
            claimed_at TEXT NOT NULL,
            pid INTEGER,
            outcome TEXT NOT NULL DEFAULT 'claimed',
            finished_at TEXT,
            result TEXT
        );
        CREATE TABLE activity (
            id INTEGER PRIMARY KEY,
            created_at TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            notification_type TEXT,
            command TEXT,
            params TEXT,
            success INTEGER,
            message TEXT,
            result TEXT,
            reason TEXT
        );
        CREATE UNIQUE INDEX activity_one_request ON activity(notification_id) WHERE kind = 'request';
        CREATE INDEX activity_by_kind ON activity(kind, id);
        CREATE TABLE memory (
            id INTEGER PRIMARY KEY,
            created_at TEXT NOT NULL,
            notification_id TEXT,
            kind TEXT NOT NULL,
            content TEXT NOT NULL
        );
        CREATE INDEX memory_recent ON memory(created_at);
        CREATE TABLE commitments (
            id INTEGER PRIMARY KEY,
            created_at TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            partner_id TEXT,
            partner_name TEXT NOT NULL,
            place_name TEXT,
            node_id TEXT,
            due_at TEXT,
            source_text TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending',
            fulfilled_at TEXT,
            UNIQUE (notification_id, source_text)
        );
        CREATE INDEX commitments_pending ON commitments(status, due_at);
        CREATE TABLE people (
            agent_id TEXT PRIMARY KEY,
            display_name TEXT NOT NULL,
            nickname TEXT,
            interactions INTEGER NOT NULL DEFAULT 0,
            first_seen TEXT NOT NULL,
            last_contact TEXT
        );
        CREATE TABLE places (
            node_id TEXT PRIMARY KEY,
            name TEXT,
            learned_at TEXT NOT NULL,
            visits INTEGER NOT NULL DEFAULT 0,
            last_visited TEXT
        );
        CREATE TABLE knowledge (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE TABLE utterances (
            id INTEGER PRIMARY KEY,
            conversation_key TEXT NOT NULL,
            message TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX utterances_by_conversation ON utterances(conversation_key, id);
        """
    )


def _m002_people_by_name(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE INDEX people_by_name ON people(display_name)")


def _m003_utterance_opens(conn: sqlite3.Connection) -> None:
    """Mark the line that opened a conversation, so turns are counted from there."""
    conn.execute("ALTER TABLE utterances ADD COLUMN opens INTEGER NOT NULL DEFAULT 0")


def _m004_heard_lines(conn: sqlite3.Connection) -> None:
    """When each line of someone else was first seen, and one promise per line said.

    A line re-read in a later notification's history resolves its time of day
    against its first sighting, and never adds a second promise.
    """
    _run_script(
        conn,
        """
        CREATE TABLE heard_lines (
            line_key TEXT PRIMARY KEY,
            first_seen TEXT NOT NULL,
            last_seen TEXT NOT NULL
        );
        CREATE INDEX heard_lines_by_time ON heard_lines(last_seen);
        ALTER TABLE commitments ADD COLUMN line_key TEXT;
        ALTER TABLE commitments ADD COLUMN said_at TEXT;
        CREATE UNIQUE INDEX commitments_one_per_line ON commitments(line_key, said_at)
            WHERE line_key IS NOT NULL
        """,
    )


def _m005_activity_model(conn: sqlite3.Connection) -> None:
    """What a language model proposed and what came of it (a JSON trace), on the run's report entry."""
    conn.execute("ALTER TABLE activity ADD COLUMN model TEXT")


def _m007_behaviour_state(conn: sqlite3.Connection) -> None:
    """What a pack's behaviour.json remembers (variables, fire counts, cooldowns), and each run's rule trace."""
    _run_script(
        conn,
        """
        CREATE TABLE behaviour_state (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        ALTER TABLE activity ADD COLUMN behaviour TEXT
        """,
    )


def _m008_journal(conn: sqlite3.Connection) -> None:
    """What the day view needs and nothing else kept: where the agent stood and when, every line of its
    conversations, the gifts given, received and declined (`karakuri-agent day`, day/).

    One row per fact, keyed so that re-reading a notification adds nothing;
    with the indexes that read one in-world day out of a year of history.
    (Number 6 was never used: migrations apply by number, so a gap is harmless.)
    """
    _run_script(
        conn,
        """
        CREATE TABLE journal (
            id INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            key TEXT NOT NULL,
            data TEXT NOT NULL,
            UNIQUE (kind, key)
        );
        CREATE INDEX journal_by_time ON journal(at);
        CREATE INDEX activity_by_time ON activity(created_at);
        CREATE INDEX commitments_by_time ON commitments(created_at);
        CREATE INDEX commitments_by_due ON commitments(due_at)
        """,
    )


def _m009_told_facts(conn: sqlite3.Connection) -> None:
    """What people told the agent about themselves (told.py), and to whom each fact was brought up when."""
    from karakuri_agent.state.told_store import SCHEMA

    _run_script(conn, SCHEMA.format(id="INTEGER PRIMARY KEY", time="TEXT"))


def _m010_named_knowledge(conn: sqlite3.Connection) -> None:
    """Withdrawn promises become a commitment status; commands' answers move to `result:<command>` keys.

    Before, the ids of withdrawn promises were a JSON list in the knowledge
    table (capped, while the rows stayed pending), and a command's answer was
    kept under the command's own name, beside the agent's named notes.
    """
    import json

    row = conn.execute("SELECT value FROM knowledge WHERE key = 'withdrawn_promises'").fetchone()
    ids = json.loads(row[0]) if row else []
    conn.executemany("UPDATE commitments SET status = 'withdrawn' WHERE id = ? AND status = 'pending'",
                     [(i,) for i in ids if isinstance(i, int) and not isinstance(i, bool)])
    conn.execute("DELETE FROM knowledge WHERE key = 'withdrawn_promises'")
    conn.execute("UPDATE knowledge SET key = 'result:' || key WHERE key NOT IN"
                 " ('buildings', 'conversation_partners', 'trips', 'listen.last_seen') AND key NOT LIKE 'result:%'")


MIGRATIONS: list[tuple[int, str, Callable[[sqlite3.Connection], None]]] = [
    (1, "initial", _m001_initial),
    (2, "people_by_name", _m002_people_by_name),
    (3, "utterance_opens", _m003_utterance_opens),
    (4, "heard_lines", _m004_heard_lines),
    (5, "activity_model", _m005_activity_model),
    (7, "behaviour_state", _m007_behaviour_state),
    (8, "journal", _m008_journal),
    (9, "told_facts", _m009_told_facts),
    (10, "named_knowledge", _m010_named_knowledge),
]


def prepare_state_dir(state_dir: Path) -> Path:
    """Create the state directory private (0700) and the database file private (0600), if they are not there.

    Modes are set only on what is created here: an existing directory keeps
    its own (a shared `/tmp`-like 1777 one included). SQLite creates its
    -wal and -shm files with the database file's mode, so making the file
    first is enough to keep all three private.
    """
    try:
        state_dir.parent.mkdir(parents=True, exist_ok=True)
        try:
            state_dir.mkdir(mode=0o700)
            os.chmod(state_dir, 0o700)  # whatever the umask took away from the owner
        except FileExistsError:
            if not state_dir.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, "not a directory", str(state_dir)) from None
        path = state_dir / DB_FILENAME
        os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
    except OSError as exc:
        raise ConfigError(f"cannot use state directory {state_dir}: {exc.strerror}") from None
    return path


def connect(state_dir: Path) -> sqlite3.Connection:
    """Open the database, migrated to the latest version; its driver errors mapped (guard.py).

    A file that cannot be opened as a database (not one, corrupt, not
    readable) is a configuration error; one locked by another process past
    the busy timeout is `StateBusy`, as for any later statement.
    """
    path = prepare_state_dir(state_dir)
    try:
        conn = open_guarded(path, BUSY_TIMEOUT_MS / 1000)
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        # A page cache of its own per connection, bounded: a fleet keeps one open per agent, and the file
        # (a few MB after a year) is read from the system's cache anyway (benchmarks/bench_fleet.py).
        conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
        _use_wal(conn)
        conn.execute("PRAGMA synchronous = FULL")
        migrate(conn)
    except StateBusy:
        raise
    except StateUnavailable as exc:
        raise ConfigError(f"cannot open the state database in {state_dir}: {exc.reason}") from None
    except sqlite3.DatabaseError as exc:  # raised by a migration's own code, not by a statement
        raise ConfigError(f"cannot open the state database in {state_dir}: {exc}") from None
    return conn


def connect_in_memory() -> sqlite3.Connection:
    """SQLite's own in-memory database, migrated: the SQLite backend with nothing on disk (state/memory.py)."""
    conn = open_guarded(Path(":memory:"), BUSY_TIMEOUT_MS / 1000)
    conn.row_factory = sqlite3.Row
    migrate(conn)
    return conn


def connect_read_only(state_dir: Path) -> sqlite3.Connection:
    """Open an existing database to read it, creating and changing nothing (`log`, `day`, `doctor`).

    A -wal file beside it means another connection is writing (or was): the
    file is opened read-only (`mode=ro`) and reads what that connection
    committed. Without one nothing is being written and the file is read as
    it stands (`immutable=1`): a read-only connection to a WAL file would
    otherwise leave a -wal and a -shm behind, and could not start at all in a
    directory it may not write to (a read-only mount). A file an older
    version wrote is read through a migrated copy in memory: the file
    itself is brought up to date by the next run that acts.
    """
    path = (state_dir / DB_FILENAME).absolute()
    wal = path.with_name(f"{DB_FILENAME}-wal")
    try:
        conn = open_guarded(path, BUSY_TIMEOUT_MS / 1000, query="mode=ro" if wal.exists() else "immutable=1")
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        stale = not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
                                 ).fetchone() or not _all_applied(conn)
    except StateBusy:
        raise
    except StateUnavailable as exc:
        raise ConfigError(f"cannot read the state database in {state_dir}: {exc.reason}") from None
    if not stale:
        return conn
    copy = open_guarded(Path(":memory:"), BUSY_TIMEOUT_MS / 1000)
    copy.row_factory = sqlite3.Row
    with mapped(str(path)):
        conn.backup(copy)
    conn.close()
    migrate(copy)  # the file's rows, brought up to date in memory
    return copy


def _use_wal(conn: sqlite3.Connection, attempts: int = 100) -> None:
    """Switch a new file to WAL mode.

    Switching needs the file to itself and SQLite reports "locked" without
    waiting on the busy timeout, so several first runs at once retry here.
    A file already in WAL mode answers at once.
    """
    for attempt in range(attempts):
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except StateBusy:
            if attempt == attempts - 1:
                raise
            time.sleep(0.05)


def _applied(conn: sqlite3.Connection) -> set[int]:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations"
        " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    return {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}


def migrate(conn: sqlite3.Connection) -> list[int]:
    """Apply missing migrations in order; returns the versions applied now."""
    has_table = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ).fetchone()
    # Every version, not only the newest: numbers are not contiguous (changes made side by side take
    # their own), so a file may hold a later one and miss an earlier one added since.
    if has_table and _all_applied(conn):
        return []  # the common case: no lock taken
    applied_now = []
    with transaction(conn):
        done = _applied(conn)
        for version, name, apply in MIGRATIONS:
            if version in done:
                continue
            apply(conn)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (version, name, utc_text(utc_now())),
            )
            applied_now.append(version)
    return applied_now


def _all_applied(conn: sqlite3.Connection) -> bool:
    wanted = [version for version, _, _ in MIGRATIONS]
    marks = ",".join("?" * len(wanted))
    found = conn.execute(f"SELECT COUNT(*) FROM schema_migrations WHERE version IN ({marks})", wanted).fetchone()[0]
    return bool(found == len(wanted))


@contextmanager
def transaction(conn: sqlite3.Connection, *, wait_for_disk: bool = True) -> Iterator[sqlite3.Connection]:
    """A write transaction that takes the lock up front (no upgrade deadlocks).

    `wait_for_disk=False` commits under `synchronous = NORMAL`: in WAL mode
    the commit survives the process being killed but is only on disk once
    the log is next synced (the next claim's commit under FULL, or a
    checkpoint), so a power cut may drop it, never half of it. For what the
    agent can learn again, never for the ledger's claim. The setting is the
    connection's, so it is switched for this commit only and set back after.

    Inside another transaction it is a savepoint: all or nothing on its own,
    committed (and synced or not) with the outer one.
    """
    if conn.in_transaction:
        conn.execute("SAVEPOINT nested")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK TO nested")
            conn.execute("RELEASE nested")
            raise
        conn.execute("RELEASE nested")
        return
    try:
        if not wait_for_disk:
            conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("BEGIN IMMEDIATE")
        yield conn
        conn.execute("COMMIT")
    finally:
        # Still open when the block raised, when COMMIT failed, or when a signal's exception (SIGTERM,
        # Ctrl-C) came between two statements, even right after BEGIN: rolled back here, so the
        # connection is never left inside a transaction and the setting below can be changed (SQLite
        # refuses it inside one, and that error would hide the one on its way out).
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if not wait_for_disk:
            conn.execute("PRAGMA synchronous = FULL")
