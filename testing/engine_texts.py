"""Idle notifications as the real Karakuri World engine writes them, for tests of the agent's day.

Written from reading the engine's formatter (its perception, choices and
info texts, both the newer single-line choices and the older ones that
listed each person and item); the shapes only, none of its code. Each
builder returns a contract notification (`notification_id`, `notification`
with `type`, `text` and JSON `choices`), so a test can serve it with respx
and run `handle()` on it.
"""

from __future__ import annotations

from typing import Any, Sequence

HEADER = "あなた (AIニケちゃん) は仮想世界「からくり町」にログインしています。\nどこにでもありそうな日本の小さな町。"
PROMPT = "karakuri-world スキルで次の行動を選択してください。"


def perception(*, clock: str = "2026-04-18 15:02", here: str = "6-11 (喫茶店 店内)",
               nodes: Sequence[str] = ("7-11(喫茶店 入口)", "4-11", "9-11(床屋 入口)", "6-16(コンビニ 店内)"),
               agents: int = 0, npcs: Sequence[tuple[str, str]] = (),
               buildings: Sequence[tuple[str, str]] = (("喫茶店「さくら」", "7-11"), ("床屋", "9-11")),
               money: int | None = 10_000, items: int | str | None = 0) -> str:
    """The perception block (`現在時刻` … `所持品`); `items` a count, or the older listed form as text."""
    lines = [f"現在時刻: {clock} (Asia/Tokyo)", "天気: くもり 18℃", f"現在地: {here}",
             f"近くのノード: {', '.join(nodes) or 'なし'}",
             f"近くのエージェント: {f'{agents} 人' if agents else 'なし'}",
             f"近くのNPC: {' / '.join(f'{n}@{node}' for n, node in npcs) or 'なし'}",
             f"近くの建物: {' / '.join(f'{b} [{node}]' for b, node in buildings) or 'なし'}",
             "近くの会話: なし", "サーバーイベント: なし"]
    if money is not None:
        lines.append(f"所持金: {money:,}円")
    if isinstance(items, str):
        lines.append(f"アイテム: {items}")
    elif items is not None:
        lines.append(f"所持品: {f'{items} 個' if items else 'なし'}")
    return "\n".join(lines)


def action_line(name: str, action_id: str, *, seconds: int | None = 3600, minutes: tuple[int, int] | None = None,
                cost: int | None = None, reward: int | None = None, needs: Sequence[tuple[str, int]] = (),
                source: str = "喫茶店「さくら」") -> str:
    """`- action: 名前 (action_id: id, 3600秒, 450円, 必要: 映画チケット×1) - 建物`, as the engine writes it."""
    details = [f"action_id: {action_id}"]
    details.append(f"{minutes[0]}〜{minutes[1]}分, duration_minutes: 分数を指定" if minutes else f"{seconds}秒")
    if cost is not None:
        details.append(f"{cost:,}円")
    if reward is not None:
        details.append(f"報酬: {reward:,}円")
    if needs:
        details.append("必要: " + ", ".join(f"{item}×{qty}" for item, qty in needs))
    return f"- action: {name} ({', '.join(details)}) - {source}"


BASIC_LINES = (
    "- move: ノードIDを指定して移動する (target_node_id: ノードID)",
    "- wait: その場で待機する (duration: 1〜6、10分単位)",
)
INFO_LINES = (
    "- get_available_actions: 現在位置で実行可能なアクションを取得する",
    "- get_perception: 周囲の情報を取得する",
    "- get_map: マップ全体の情報を取得する",
    "- get_world_agents: 全エージェントの位置と状態を取得する",
    "- get_status: 自分の所持金・所持品・現在地を取得する",
    "- get_nearby_agents: 隣接エージェントの一覧を取得する",
)
START_LINE = "- conversation_start: 隣接エージェントに話しかける (target_agent_id: ID, message: 最初のメッセージ)"


def choices(actions: Sequence[dict[str, Any]] = (), *, start: bool = False, enum_nodes: Sequence[str] = (),
            info: bool = True, action_schema: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The JSON choices beside the text: one `action` choice per offered action (with its own schema), and the rest."""
    out: list[dict[str, Any]] = []
    for action in actions:
        schema = dict(action_schema or {})
        required = ["action_id"]
        if action.get("minutes"):
            low, high = action["minutes"]
            schema["duration_minutes"] = {"type": "integer", "minimum": low, "maximum": high}
            required.append("duration_minutes")
        out.append({"command": "action", "description": action["name"], "params": {"action_id": action["id"]},
                    "required_params": required, "param_schema": schema})
    target: dict[str, Any] = {"type": "string"}
    if enum_nodes:
        target["enum"] = list(enum_nodes)
    out.append({"command": "move", "description": "ノードIDを指定して移動する", "required_params": ["target_node_id"],
                "param_schema": {"target_node_id": target}})
    out.append({"command": "wait", "description": "その場で待機する", "required_params": ["duration"],
                "param_schema": {"duration": {"type": "integer", "minimum": 1, "maximum": 6}}})
    if start:
        out.append({"command": "conversation_start", "description": "隣接エージェントに話しかける",
                    "required_params": ["target_agent_id", "message"],
                    "param_schema": {"target_agent_id": {"type": "string"},
                                     "message": {"type": "string", "maxLength": 200}}})
    if info:
        out += [{"command": line[2:].split(":", 1)[0], "description": line.split(": ", 1)[1]} for line in INFO_LINES]
    return out


def idle(notification_id: str, *, actions: Sequence[dict[str, Any]] = (), start: bool = False,
         created_at: str = "2026-04-18T06:02:00.000Z", lead: str = "前回の行動から10分間が経過しました。",
         kind: str = "idle_reminder_fired", enum_nodes: Sequence[str] = (), **seen: Any) -> dict[str, Any]:
    """An idle notification: the header, a lead sentence, the perception, the choices (text and JSON)."""
    lines = [action_line(a["name"], a["id"], **{k: v for k, v in a.items() if k not in ("name", "id")})
             for a in actions]
    lines += list(BASIC_LINES) + ([START_LINE] if start else []) + list(INFO_LINES)
    text = "\n\n".join([HEADER, lead, perception(**seen), "選択肢:\n" + "\n".join(lines) + "\n\n" + PROMPT])
    return {"notification_id": notification_id, "created_at": created_at, "expires_at": "2099-01-01T00:00:00.000Z",
            "status": "pending",
            "notification": {"type": kind, "text": text, "choices": choices(actions, start=start, enum_nodes=enum_nodes)}}
