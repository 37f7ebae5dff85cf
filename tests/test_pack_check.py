"""A configured pack's check, remembered by content (voice/pack_check.py): skipped only for the very
bytes that passed, with the same checking code, and never for a pack that changed meanwhile."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from karakuri_agent.voice import pack_check, persona_pack
from karakuri_agent.voice.persona_pack import BrokenPack, load_persona

NIKE = Path(__file__).resolve().parents[1] / "skill" / "personas" / "nike"


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    shutil.copytree(NIKE, tmp_path / "pack")
    return tmp_path / "pack"


@pytest.fixture
def state(tmp_path: Path) -> Path:
    (tmp_path / "state").mkdir()
    return tmp_path / "state"


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every full check of a pack that a load runs, by directory."""
    seen: list[Path] = []
    real = persona_pack.problems

    def counted(directory: Path) -> list[str]:
        seen.append(directory)
        return real(directory)

    monkeypatch.setattr(persona_pack, "problems", counted)
    return seen


def test_a_pack_that_passed_is_not_checked_again_and_loads_the_same(pack, state, checks):
    first = load_persona(pack, checked_in=state)
    again = load_persona(pack, checked_in=state)
    assert checks == [pack]  # the second load used the remembered pass
    assert again == first == load_persona(pack)  # the same persona as a load that checks every time
    assert again.behaviour is not None and again.behaviour.rules  # the pack's rules came along


def test_the_state_directory_keeps_only_the_key(pack, state, checks):
    load_persona(pack, checked_in=state)
    kept = (state / pack_check.CHECKED_FILE).read_text(encoding="ascii").strip()
    assert len(kept) == 64 and set(kept) <= set("0123456789abcdef")  # a SHA-256, none of the pack's text
    assert [p.name for p in state.iterdir()] == [pack_check.CHECKED_FILE]  # no scratch file left behind


def test_an_edit_that_breaks_the_pack_is_caught_after_a_pass(pack, state, checks):
    load_persona(pack, checked_in=state)
    data = json.loads((pack / "persona.json").read_text(encoding="utf-8"))
    data["farewells"] = []
    (pack / "persona.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(BrokenPack, match="farewells"):
        load_persona(pack, checked_in=state)


def test_a_broken_behaviour_file_is_caught_after_a_pass(pack, state, checks):
    load_persona(pack, checked_in=state)
    (pack / "behaviour.json").write_text('{"rules": [{"id": 3}]}', encoding="utf-8")
    with pytest.raises(BrokenPack):
        load_persona(pack, checked_in=state)


def test_removing_the_behaviour_file_is_a_new_content(pack, state, checks):
    load_persona(pack, checked_in=state)
    (pack / "behaviour.json").unlink()
    loaded = load_persona(pack, checked_in=state)
    assert len(checks) == 2 and loaded == load_persona(pack)


def test_other_checking_code_checks_again(pack, state, checks, monkeypatch):
    load_persona(pack, checked_in=state)
    monkeypatch.setattr(pack_check, "code_fingerprint", lambda: "another install")
    load_persona(pack, checked_in=state)
    assert len(checks) == 2


def test_editing_a_module_of_the_package_changes_the_fingerprint(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    shutil.copytree(Path(pack_check.__file__).parent, package / "voice")
    monkeypatch.setattr(pack_check, "_PACKAGE", package)
    pack_check.code_fingerprint.cache_clear()
    try:
        before = pack_check.code_fingerprint()
        pack_check.code_fingerprint.cache_clear()
        (package / "voice" / "persona_pack.py").write_text("# edited\n", encoding="utf-8")
        assert pack_check.code_fingerprint() != before
    finally:
        pack_check.code_fingerprint.cache_clear()


def test_a_pack_changed_while_it_was_checked_is_not_remembered(pack, state, monkeypatch):
    real = persona_pack.problems

    def edited_meanwhile(directory: Path) -> list[str]:
        found = real(directory)
        path = directory / "persona.json"
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # other bytes, still valid
        return found

    monkeypatch.setattr(persona_pack, "problems", edited_meanwhile)
    load_persona(pack, checked_in=state)
    assert not (state / pack_check.CHECKED_FILE).exists()


@pytest.mark.parametrize("kept", ["", "not a key\n", "\xff\xfe", "0" * 64])
def test_a_cache_file_that_says_something_else_means_checking(pack, state, checks, kept):
    (state / pack_check.CHECKED_FILE).write_bytes(kept.encode("utf-8", "surrogateescape"))
    load_persona(pack, checked_in=state)
    assert checks == [pack]


def test_without_a_state_directory_nothing_is_kept_and_every_load_checks(pack, tmp_path, checks):
    missing = tmp_path / "no-state-yet"
    load_persona(pack, checked_in=missing)
    load_persona(pack, checked_in=missing)
    assert len(checks) == 2 and not missing.exists()  # the pack's check never creates the state directory


def test_a_persona_check_always_checks(pack, state):
    load_persona(pack, checked_in=state)
    (pack / "persona.json").write_text('{"name": 3}', encoding="utf-8")
    assert persona_pack.problems(pack)  # `persona check` and `doctor` call problems() itself: never remembered


@pytest.mark.parametrize("field", ["topics", "likes", "honorific", "farewells", "facts", "small_talk", "tastes"])
def test_a_null_field_is_a_field_left_unset(pack, field):
    # The check accepted `null` for every optional field and the loader then failed on it (a TypeError
    # out of `handle`): a null now means the default, as leaving the field out does.
    data = json.loads((pack / "persona.json").read_text(encoding="utf-8"))
    data[field] = None
    (pack / "persona.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    del data[field]
    (pack.parent / "without").mkdir()
    shutil.copy(pack / "behaviour.json", pack.parent / "without" / "behaviour.json")
    (pack.parent / "without" / "persona.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert persona_pack.problems(pack) == []
    # (the behaviour differs only in the path it was read from)
    assert replace(load_persona(pack), behaviour=None) == replace(load_persona(pack.parent / "without"), behaviour=None)
