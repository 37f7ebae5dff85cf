"""Every value of a pack that a line may say is held to the phrase rules: no link, mention, markup, id or
control character gets past `persona check`, whichever field holds it (issue 38 item 3)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from karakuri_agent.app.cli import agent
from karakuri_agent.voice.persona_pack import iter_spoken_values, load_persona, value_problem

NIKE = Path(__file__).resolve().parents[1] / "skill" / "personas" / "nike"
PERSONA = json.loads((NIKE / "persona.json").read_text(encoding="utf-8"))

# (where in persona.json, the dotted path `persona check` names): every spoken field, list fields at index 0.
FIELDS = [
    (("name",), "name"), (("short_name",), "short_name"), (("first_person",), "first_person"),
    (("honorific",), "honorific"), (("likes", 0), "likes[0]"), (("topics", 0), "topics[0]"),
    (("favourite_places", 0), "favourite_places[0]"),
    (("tastes", "likes", 0), "tastes.likes[0]"), (("tastes", "dislikes", 0), "tastes.dislikes[0]"),
    (("tastes", "pastimes", 0), "tastes.pastimes[0]"), (("tastes", "favourites", "food"), "tastes.favourites.food"),
    (("tastes", "favourites", "colour"), "tastes.favourites.colour"),
    (("tastes", "habits", 0, "words", 0), "tastes.habits[0].words[0]"),
]
HOSTILE = st.sampled_from([
    "https://evil.example/pastime", "www.evil.example", "@everyone", "@here", "＠だれか", "<@123456789012345678>",
    "**太字**", "`code`", "discord.gg/abc", "[リンク](https://x.test)", "1470446478261747854", "notif-ABCD1234",
    "改\n行", "タブ\tあり", "見えない\u200b文字", "\x1b[31m赤\x1b[0m", "ベル\x07",
])


def _set(data, where, value):
    node = data
    for step in where[:-1]:
        if isinstance(step, int):
            node = node[step]
        else:
            node = node.setdefault(step, {} if not isinstance(where[where.index(step) + 1], int) else [""])
    last = where[-1]
    if isinstance(last, int):
        node[last] = value
    else:
        node[last] = value


@settings(max_examples=80, deadline=None)
@given(field=st.sampled_from(FIELDS), hostile=HOSTILE, around=st.sampled_from(["{}", "{} を見ること", "夕方の{}"]),
       data=st.data())
def test_a_spoken_value_holding_what_the_speech_would_cut_is_named_by_persona_check(tmp_path_factory, field, hostile,
                                                                                    around, data):
    pack = tmp_path_factory.mktemp("pack")
    shutil.copy(NIKE / "persona.json", pack / "persona.json")
    edited = json.loads(json.dumps(PERSONA))
    if field[0][0] == "tastes" and "habits" in field[0]:
        edited.setdefault("tastes", {})["habits"] = [{"words": ["x"], "does": True}]
    _set(edited, field[0], around.format(hostile))
    (pack / "persona.json").write_text(json.dumps(edited, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(agent, ["persona", "check", str(pack)])
    assert result.exit_code != 0, (field, hostile, result.output)
    assert f"persona.json: {field[1]}: " in result.output, (field, hostile, result.output)


def test_a_link_in_a_pastime_is_refused_and_the_bundled_values_all_pass(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    edited = {**PERSONA, "tastes": {**PERSONA.get("tastes", {}), "pastimes": ["https://evil.example/pastime を見ること"]}}
    (pack / "persona.json").write_text(json.dumps(edited, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(agent, ["persona", "check", str(pack)])
    assert result.exit_code != 0 and "tastes.pastimes[0]: contains a link" in result.output
    values = list(iter_spoken_values(load_persona(NIKE)))
    assert len(values) > 20 and [v for _, v in values if value_problem(v)] == []
