"""The day as one self-contained HTML page (`karakuri-agent day --html FILE`).

Opens on a machine with no network: no script at all, the style inline,
no font or image fetched, and a Content-Security-Policy that forbids
fetching anything, should a later change slip. Everything shown comes from
other agents (names, lines) or the server (place labels), so every value is
escaped, in text and in attributes alike, inside the SVG drawing too.

The drawing places each known place by its node id (`8-14`: row 8,
column 14 of the world's grid) and draws the path walked through the
places visited, in order. A node id of another shape cannot be placed and
is only listed.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from html import escape
from typing import Iterable

from karakuri_agent.app.day.model import ZONE, Day, Promise, Transfer
from karakuri_agent.ja import day_text
from karakuri_agent.ja.day_text import (
    KINDS,
)
from karakuri_agent.ja.markup import LIST_JOIN, quoted
from karakuri_agent.ja.phrases import yen

GRID = re.compile(r"^(\d{1,4})-(\d{1,4})$")
CELL = 40  # SVG units between two grid columns or rows
LABEL_FONT = 11  # the map labels' size in SVG units (the style's `svg .place text`)
LABEL_GAP = 10  # from a place's mark to its label
STYLE = """
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#222;background:#faf8f4}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:.2rem 0 1rem}
h2{font-size:1.1rem;margin:1.6rem 0 .5rem;border-bottom:1px solid #ddd}
.summary{color:#555}
ol.timeline{list-style:none;padding:0;margin:0;border-left:3px solid #c9b79c}
ol.timeline li{margin:0 0 .4rem;padding-left:.8rem;position:relative;overflow-wrap:anywhere}
ol.timeline li::before{content:"";position:absolute;left:-.45rem;top:.55rem;width:.6rem;height:.6rem;
 border-radius:50%;background:#c9b79c}
time{font-variant-numeric:tabular-nums;color:#666;margin-right:.5rem}
.kind{display:inline-block;min-width:4.5rem;font-size:.8rem;color:#fff;background:#8a7a63;border-radius:.3rem;
 padding:0 .3rem;margin-right:.4rem;text-align:center}
.kind-talk{background:#4f7cac}.kind-promise{background:#7a5ea8}.kind-gift{background:#3f8f5a}
.kind-failure{background:#b8443a}
figure{margin:0}
svg.map{width:100%;height:auto;max-height:70vh;background:#fff;border:1px solid #ddd;border-radius:.4rem}
svg .place circle{fill:#d9d2c5}
svg .place.visited circle{fill:#e39a3b}
svg .place text{font-size:11px;fill:#333}
svg polyline.path{fill:none;stroke:#e3603b;stroke-width:3;stroke-linejoin:round;stroke-dasharray:6 4}
.talk{background:#fff;border:1px solid #ddd;border-radius:.4rem;padding:.5rem .8rem;margin:.6rem 0}
.talk h3{font-size:1rem;margin:0 0 .3rem}
.talk ol{margin:0;padding-left:1.2rem}
.talk li{overflow-wrap:anywhere}
.talk li.own{color:#2c5a8a}
.speaker{font-weight:600;margin-right:.3rem}
ul.plain{padding-left:1.2rem}
ul.plain li{overflow-wrap:anywhere}
.status{display:inline-block;min-width:5rem;text-align:center;border-radius:.3rem;padding:0 .3rem;
 font-size:.85rem;margin-right:.4rem;color:#fff}
.status-kept{background:#3f8f5a}.status-missed{background:#b8443a}.status-pending{background:#c08a1e}
.status-made{background:#4f7cac}.status-cancelled{background:#888}
@media (max-width:40rem){body{font-size:15px}main{padding:.6rem}.kind{min-width:0}}
"""


def render(day: Day) -> str:
    """The whole page."""
    title = day_text.title(day.date.isoformat())
    body = "\n".join([
        f"<h1>{_e(title)}</h1>",
        f'<p class="summary">{_e(_summary(day))}</p>',
        *(_sections(day) if not day.empty else [f'<p class="empty">{day_text.NO_RECORDS}</p>']),
    ])
    return (
        "<!DOCTYPE html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{_e(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def _sections(day: Day) -> list[str]:
    return [
        _heading("timeline"), _timeline(day), "</section>",
        _heading("map"), _map(day), "</section>",
        _heading("conversations"), *_talks(day), "</section>",
        _heading("promises"), _list(_promise(p) for p in day.promises), "</section>",
        _heading("gifts"), _list(_gift(t) for t in day.transfers), "</section>",
        _heading("commands"), _list(
            f'<span class="command">{_e(name)}</span> × {count}'
            for name, count in sorted(day.commands.items(), key=lambda c: -c[1])), "</section>",
        _heading("failures"), _list(
            f"{_time(f.at)}<code>{_e(f.notification_id)}</code> <strong>{_e(f.error)}</strong> {_e(f.message)}"
            for f in day.failures), "</section>",
        *_rules(day),
    ]


def _summary(day: Day) -> str:
    return day_text.summary(notifications=day.notifications, commands=sum(day.commands.values()),
                          places=len(day.places), conversations=len(day.conversations), promises=len(day.promises),
                          zone=str(ZONE))


def _timeline(day: Day) -> str:
    items = [f'<li class="event-{_e(kind)}">{_time(at)}<span class="kind kind-{_e(kind)}">{_e(KINDS[kind])}</span>'
             f"{_e(what)}</li>" for at, kind, what in day.timeline()]
    return f'<ol class="timeline">{"".join(items)}</ol>' if items else f"<p>{day_text.NOTHING}</p>"


def _map(day: Day) -> str:
    visited = [v.node_id for v in day.places]
    nodes = dict(day.known_places)
    nodes.update((visit.node_id, visit.label) for visit in day.places)  # named as the day saw them
    placed = {node: (int(m.group(2)), int(m.group(1))) for node in nodes if (m := GRID.match(node))}
    unplaced = [node for node in nodes if node not in placed and node in visited]
    if not placed:
        return f"<p>{day_text.NO_PLACES}</p>"
    cols = [c for c, _ in placed.values()]
    rows = [r for _, r in placed.values()]
    left, top = (min(cols) - 1) * CELL, (min(rows) - 1) * CELL
    # Wide enough for the longest label where it ends (a label is drawn to the right of its mark).
    right = max([(max(cols) + 2) * CELL] + [col * CELL + LABEL_GAP + _label_width(nodes[node]) + CELL // 4
                                            for node, (col, _) in placed.items()])
    width, height = right - left, (max(rows) - min(rows) + 2) * CELL
    marks = []
    for node, (col, row) in sorted(placed.items()):
        x, y = col * CELL, row * CELL
        kind = "place visited" if node in visited else "place"
        marks.append(f'<g class="{kind}" data-node="{_e(node)}"><title>{_e(nodes[node])} [{_e(node)}]</title>'
                     f'<circle cx="{x}" cy="{y}" r="7"/><text x="{x + LABEL_GAP}" y="{y + 4}">{_e(nodes[node])}</text></g>')
    walk = " ".join(f"{placed[n][0] * CELL},{placed[n][1] * CELL}" for n in visited if n in placed)
    path = f'<polyline class="path" points="{walk}"/>' if len(visited) > 1 else ""
    svg = (f'<svg class="map" xmlns="http://www.w3.org/2000/svg" viewBox="{left} {top} {width} {height}"'
           f' role="img" aria-label="{day_text.MAP_LABEL}">{path}{"".join(marks)}</svg>')
    rest = f"<p>{_e(day_text.unplaced(LIST_JOIN.join(unplaced)))}</p>" if unplaced else ""
    return f"<figure>{svg}</figure>{rest}"


def _label_width(label: str) -> int:
    """How wide a map label is drawn (11px text), a little over: a full-width character 11 units, others 7."""
    return sum(LABEL_FONT if unicodedata.east_asian_width(ch) in "WF" else LABEL_FONT * 2 // 3 + 1 for ch in label)


def _talks(day: Day) -> Iterable[str]:
    if not day.conversations:
        yield f"<p>{day_text.NOTHING}</p>"
    for talk in day.conversations:
        lines = "".join(f'<li class="{"own" if line.own else "other"}">{_time(line.at)}'
                        f'<span class="speaker">{_e(line.speaker)}</span>{_e(line.text)}</li>' for line in talk.lines)
        yield (f'<article class="talk"><h3>{_time(talk.started_at)}–{_time(talk.ended_at)}'
               f'<span class="partners">{_e(LIST_JOIN.join(talk.partners) or day_text.SOMEONE)}</span></h3><ol>{lines}</ol></article>')


def _promise(p: Promise) -> str:
    due = _time(p.due_at) if p.due_at else f"<time>{day_text.NO_TIME}</time>"
    return (f'<span class="status status-{_e(p.status)}" data-status="{_e(p.status)}">{_e(day_text.status(p.status))}</span>'
            f'{due}<span class="partner">{_e(p.partner)}</span> / '
            f'<span class="place">{_e(p.place or day_text.NO_PLACE)}</span><br><small>{_e(quoted(p.text))}</small>')


def _gift(t: Transfer) -> str:
    what = f"{t.item['item_id']}×{t.item['quantity']}" if t.item else yen(t.money) if t.money else ""
    return (f'{_time(t.at)}<span class="direction" data-direction="{_e(t.direction)}">{_e(day_text.direction(t.direction))}</span> '
            f'<span class="partner">{_e(t.partner)}</span> {_e(what)}')


def _rules(day: Day) -> list[str]:
    """Rules that decided, the pack's variables through the day, and what people told the agent."""
    out = []
    if day.rules_fired:
        out += [_heading("rules"), _list(
            f"{_time(r.at)}<code>{_e(r.rule)}</code> {_e(r.command or '')}" for r in day.rules_fired), "</section>"]
    if day.variables:
        out += [_heading("variables"), _list(
            f"{_time(v.at)}<code>{_e(v.path)}</code> = {_e(str(v.value))}" for v in day.variables), "</section>"]
    if day.learned:
        out += [_heading("learned"), _list(
            f'{_time(f.at)}<span class="teller">{_e(f.teller)}</span>{_e(quoted(f.line))}'
            + (day_text.TAKEN_BACK if f.withdrawn else "") for f in day.learned), "</section>"]
    return out


def _list(items: Iterable[str]) -> str:
    rows = "".join(f"<li>{item}</li>" for item in items)
    return f'<ul class="plain">{rows}</ul>' if rows else f"<p>{day_text.NOTHING}</p>"


def _time(moment: datetime) -> str:
    local = moment.astimezone(ZONE)
    return f'<time datetime="{_e(local.isoformat(timespec="seconds"))}">{local:%H:%M}</time>'


def _e(text: str) -> str:
    return escape(str(text), quote=True)


def _heading(section: str) -> str:
    return f'<section id="{section}"><h2>{day_text.HEADINGS[section]}</h2>'
