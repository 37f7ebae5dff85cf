"""Two packs in one town (`town --compare`): the notifications where the characters decided differently.

Both live the same seed, so their towns start as one world and issue the
same notifications, text for text, until a character does something the
other did not. A decision differs when the command, its params (the spoken
line included) or the rule that decided differ. From the first
notification whose text differs the two worlds have parted (each answers
what its own character did): nothing after it is compared, and where they
parted is said.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from karakuri_agent.app.life.run import Decided, Life
from karakuri_agent.town.texts import TOKYO


@dataclass(frozen=True)
class Comparison:
    first: Life
    second: Life
    compared: int
    differences: list[tuple[Decided, Decided]]
    parted: tuple[Decided, Decided] | None  # the first notification the two towns wrote differently


def compare(first: Life, second: Life) -> Comparison:
    differences: list[tuple[Decided, Decided]] = []
    compared = 0
    for mine, theirs in zip(first.decided, second.decided):
        if mine.notification_id != theirs.notification_id or mine.text != theirs.text:
            return Comparison(first, second, compared, differences, (mine, theirs))
        compared += 1
        if _decision(mine) != _decision(theirs):
            differences.append((mine, theirs))
    return Comparison(first, second, compared, differences, None)


def _decision(decided: Decided) -> tuple[Any, ...]:
    return decided.command, sorted(decided.params.items()), decided.rule


def as_json(found: Comparison) -> dict[str, Any]:
    return {
        "pack": found.first.pack,
        "compare": found.second.pack,
        "seed": found.first.seed,
        "compared": found.compared,
        "differences": [{"notification_id": a.notification_id, "notification_type": a.notification_type,
                         "at": _iso(a), "pack": _choice(a), "compare": _choice(b)} for a, b in found.differences],
        "parted_at": None if found.parted is None else {"notification_id": found.parted[0].notification_id,
                                                        "at": _iso(found.parted[0])},
    }


def text_lines(found: Comparison) -> Iterable[str]:
    first, second = found.first.pack, found.second.pack
    yield (f"{first} and {second} in one town (seed {found.first.seed}): {found.compared} notifications compared,"
           f" {len(found.differences)} decided differently")
    for a, b in found.differences:
        yield f"  {_hm(a)}  {a.notification_id} ({a.notification_type})"
        yield f"    {first}: {_said(a)}"
        yield f"    {second}: {_said(b)}"
    if found.parted is not None:
        yield (f"from {_hm(found.parted[0])} ({found.parted[0].notification_id}) the two towns differ, each answering"
               " what its own character did: nothing after it is compared")


def _choice(decided: Decided) -> dict[str, Any]:
    return {"command": decided.command, "params": decided.params, "rule": decided.rule}


def _said(decided: Decided) -> str:
    if decided.command is None:
        return f"nothing sent ({decided.rule or 'no rule'})"
    params = ", ".join(f"{key}={value}" for key, value in sorted(decided.params.items()))
    return f"{decided.command}" + (f" {params}" if params else "") + f" ({decided.rule or 'no rule'})"


def _iso(decided: Decided) -> str:
    return decided.at.astimezone(TOKYO).isoformat(timespec="seconds")


def _hm(decided: Decided) -> str:
    return f"{decided.at.astimezone(TOKYO):%Y-%m-%d %H:%M}"
