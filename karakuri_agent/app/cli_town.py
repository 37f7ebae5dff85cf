"""`karakuri-agent town`: try a character for days in the offline town, before it goes live (docs/town.md)."""

from __future__ import annotations

from pathlib import Path

import click

from karakuri_agent.app.cli_support import PACK_DIR, WholeHelpCommand, handles_errors, print_json, say
from karakuri_agent.errors import UsageError


@click.command(cls=WholeHelpCommand, name="town")
@click.option("--pack", type=PACK_DIR, default=None,
              help="The persona pack to live as [default: the bundled character]. KARAKURI_PERSONA_DIR is not read.")
@click.option("--days", default=1, show_default=True, type=int, help="In-world days to live, 1 to 30.")
@click.option("--seed", default=1, show_default=True, type=int,
              help="The town: its map, residents and what they do. One seed, pack and --days make one life.")
@click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Keep the life's state in DIR, a new or empty directory (for `KARAKURI_STATE_DIR=DIR"
                   " karakuri-agent day`, `log`, `state show`) instead of a throwaway one.")
@click.option("--compare", "other", type=PACK_DIR, metavar="DIR2",
              help="Also live as the pack in DIR2 on the same seed, and list the notifications where the two"
                   " decided differently.")
@click.option("--json", "as_json", is_flag=True, help="Print the days (or the comparison) as one JSON object.")
@handles_errors
def town(pack: Path | None, days: int, seed: int, state_dir: Path | None, other: Path | None, as_json: bool) -> None:
    """Live N in-world days as the character in the bundled offline town; print each day.

    The town plays the Karakuri World server in process, on the engine's
    rules and texts: residents walk, talk, invite, give and promise, by day
    and night. The character speaks with its pack's name and voice, its
    behaviour.json rules fire and its variables move; nothing is sent
    anywhere (no server, no webhook, no model: the rules decide). Per day:
    places, conversations, promises kept and missed, gifts, each rule's fire
    count and every variable at the day's end.
    """
    from karakuri_agent.app.interrupt import terminated_unwinds

    with terminated_unwinds():  # SIGTERM, as Ctrl-C, removes the throwaway state on the way out
        _town(pack, days, seed, state_dir, other, as_json)


def _town(pack: Path | None, days: int, seed: int, state_dir: Path | None, other: Path | None, as_json: bool) -> None:
    from karakuri_agent.app.life.run import check_days, live, load_pack

    check_days(days)  # every argument checked before a day is lived
    load_pack(pack)
    if other is None:
        from karakuri_agent.app.life.summary import as_json as life_json
        from karakuri_agent.app.life.summary import text_lines

        life = live(pack, days, seed, state_dir)
        if as_json:
            print_json(life_json(life))
        else:
            for line in text_lines(life):
                say(line)
        return
    if state_dir is not None:
        raise UsageError("--state-dir keeps one life; with --compare both lives are throwaway")
    load_pack(other)
    from karakuri_agent.app.life import compare

    found = compare.compare(live(pack, days, seed), live(other, days, seed))
    if as_json:
        print_json(compare.as_json(found))
    else:
        for line in compare.text_lines(found):
            say(line)
