"""The state file: numbered migrations, applied once, in order, recorded."""

import sqlite3

import pytest

from karakuri_agent.state.sqlite import db
from karakuri_agent.errors import ConfigError


def versions(conn):
    return [row[0] for row in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]


def test_a_new_state_file_gets_every_migration_recorded(tmp_path):
    conn = db.connect(tmp_path)
    assert versions(conn) == [version for version, _, _ in db.MIGRATIONS]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_older_file_is_brought_up_to_date_keeping_its_data(tmp_path):
    path = db.prepare_state_dir(tmp_path)
    old = sqlite3.connect(path, isolation_level=None)
    first = db.MIGRATIONS[:1]
    old.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
    first[0][2](old)
    old.execute("INSERT INTO schema_migrations VALUES (1, 'initial', '2026-01-01')")
    old.execute("INSERT INTO utterances (conversation_key, message, created_at) VALUES ('k', 'やあ', '2026-01-01')")
    old.close()

    conn = db.connect(tmp_path)
    assert versions(conn) == [1, 2, 3, 4, 5, 7, 8, 9, 10]
    assert [tuple(row) for row in conn.execute("SELECT message, opens FROM utterances")] == [("やあ", 0)]


def test_a_migration_numbered_below_the_newest_applied_one_is_still_applied(tmp_path, monkeypatch):
    """Numbers are not contiguous: a file that has 8 and not a 6 added since still gets the 6."""
    db.connect(tmp_path).close()
    added = []
    monkeypatch.setattr(db, "MIGRATIONS", sorted(db.MIGRATIONS + [(6, "added_since", lambda c: added.append(6))]))
    conn = db.connect(tmp_path)
    assert added == [6] and 6 in versions(conn)
    assert db.migrate(conn) == []


def test_migrating_again_applies_nothing(tmp_path):
    conn = db.connect(tmp_path)
    assert db.migrate(conn) == []


def test_a_failed_migration_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    def broken(conn):
        conn.execute("CREATE TABLE half_done (x)")
        raise sqlite3.OperationalError("boom")

    db.connect(tmp_path).close()
    monkeypatch.setattr(db, "MIGRATIONS", db.MIGRATIONS + [(99, "broken", broken)])
    with pytest.raises(ConfigError, match="boom"):
        db.connect(tmp_path)
    conn = sqlite3.connect(tmp_path / db.DB_FILENAME)
    assert 99 not in versions(conn)
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'").fetchone() is None


def test_migration_10_makes_withdrawn_promises_a_status_and_moves_command_answers_apart(tmp_path):
    """A file from before: withdrawn ids in a capped JSON list, a command's answer under its own name."""
    path = db.prepare_state_dir(tmp_path)
    old = sqlite3.connect(path, isolation_level=None)
    old.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
    for version, name, apply in db.MIGRATIONS:
        if version < 10:
            apply(old)
            old.execute("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01')", (version, name))
    for source in ("駅で3時", "公園で4時", "本屋で5時"):
        old.execute("INSERT INTO commitments (created_at, notification_id, partner_name, source_text, status)"
                    " VALUES ('2026-01-01', 'n1', 'メイ', ?, 'pending')", (source,))
    old.execute("UPDATE commitments SET status = 'fulfilled' WHERE id = 3")
    for key, value in [("withdrawn_promises", "[1, 3, \"x\", true]"), ("get_map", "{\"nodes\": [1]}"),
                       ("buildings", "[]"), ("listen.last_seen", "{}")]:
        old.execute("INSERT INTO knowledge (key, value, updated_at) VALUES (?, ?, '2026-01-01')", (key, value))
    old.close()

    conn = db.connect(tmp_path)
    assert [tuple(r) for r in conn.execute("SELECT id, status FROM commitments ORDER BY id")] == [
        (1, "withdrawn"), (2, "pending"), (3, "fulfilled")]  # a kept promise stays kept
    assert sorted(r[0] for r in conn.execute("SELECT key FROM knowledge")) == [
        "buildings", "listen.last_seen", "result:get_map"]
