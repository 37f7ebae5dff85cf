"""Views of a conversation to start with someone near, the pack's closeness to each set by hand."""

from __future__ import annotations

from pathlib import Path

from karakuri_agent.mind.view import View
from karakuri_agent.voice.persona_pack import load_persona
from testing.store_rows import as_refs
from testing.views import MOVE, choice, view

PACK = Path(__file__).resolve().parents[1] / "skill" / "personas" / "nike"
MEI, KOU, RIN = "1474403124906295517", "1462098815530061904", "1462098815530061777"
NEARBY = [{"id": MEI, "name": "桜草メイ"}, {"id": KOU, "name": "黒瀬コウ"}, {"id": RIN, "name": "白石リン"}]


def start_view(nid: str, closeness: dict[str, int], persona=None) -> View:
    start = choice("conversation_start", param_schema={
        "target_agent_id": {"type": "string", "enum": [p["id"] for p in NEARBY]}, "message": {"type": "string"}})
    v = view([start, MOVE], recent=[{"command": "action", "params": {}}])
    return View(**{**v.__dict__, "notification_id": nid, "nearby_agents": as_refs(NEARBY),
                   "persona": persona or load_persona(PACK),
                   "behaviour_memory": {"variables": {f"closeness.{n}": c for n, c in closeness.items()}}})
