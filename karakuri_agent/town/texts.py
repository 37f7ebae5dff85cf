"""Notification texts as the Karakuri World engine formats them (apps/server/src/discord/notification.ts).

Three generations of the engine's text are modelled, chosen per town:

- `new` (the engine's HEAD, "choices folded into single lines"): the
  perception block counts people and items (`近くのエージェント: 2 人`,
  `所持品: 3 個`, `近くの会話: なし`, `サーバーイベント: なし`), and the
  `conversation_start` / `transfer` / `use-item` choices are one generic line
  each; ids come from the info commands (`get_nearby_agents`, `get_status`);
- `oldest` (before transfers existed): as `old`, without any transfer line,
  hint or `transfer_response`, and nobody offers anything;
- `old` (before that commit): the perception block names who is seen
  (`見えているエージェント: 名前@3-4`) and what is held (`アイテム: 名前 (id) ×1`),
  and there is one choice line per person (`conversation_start: 名前 に話しかける
  (target_agent_id: …)`), per transfer target and per item.

Every text is written from the town's state by these functions; nothing is
copied from the engine's source.
"""

from __future__ import annotations

from datetime import datetime
from typing import Iterable, Protocol, Sequence
from zoneinfo import ZoneInfo

from .world import ITEM_NAMES, Action, Map, World

TOKYO = ZoneInfo("Asia/Tokyo")
SKILL = "karakuri-world"


def yen(amount: int) -> str:
    return f"{amount:,}円"


def discord_message(agent_name: str, summary: str, notification_id: str) -> str:
    """The message the world posts for the agent: whom it is for, what happened, the id."""
    return f"{agent_name} への通知があります。{summary}\nnotification_id: {notification_id}"


class Named(Protocol):
    """What a text's header names: the world (town/world.World, or any scene that plays one)."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...


def header(world: Named, agent_name: str) -> str:
    return f"あなた ({agent_name}) は仮想世界「{world.name}」にログインしています。\n{world.description}"


def prompt(choices_text: str | None) -> str:
    line = f"{SKILL} スキルで次の行動を選択してください。"
    return f"{choices_text}\n\n{line}" if choices_text else line


def sections(*parts: str | None) -> str:
    return "\n\n".join(p.strip() for p in parts if p and p.strip())


def node_with_label(world: World, node: str, *, spaced: bool) -> str:
    label = world.map.labels.get(node)
    if not label:
        return node
    return f"{node} ({label})" if spaced else f"{node}({label})"


def world_time(now: datetime) -> str:
    local = now.astimezone(TOKYO)
    return f"{local:%Y-%m-%d %H:%M} (Asia/Tokyo)"


def action_line(action: Action, source: str) -> str:
    """`コーヒーを飲む (action_id: drink-coffee, 3600秒, 450円) - 喫茶店「さくら」`."""
    if action.duration_ms is not None:
        duration = f"{action.duration_ms // 1000}秒"
    else:
        duration = f"{action.min_minutes}〜{action.max_minutes}分, duration_minutes: 分数を指定"
    details = [f"action_id: {action.action_id}", duration]
    if action.cost_money is not None:
        details.append(yen(action.cost_money))
    if action.reward_money is not None:
        details.append(f"報酬: {yen(action.reward_money)}")
    if action.required_items:
        details.append("必要: " + ", ".join(f"{ITEM_NAMES.get(i, i)}×{q}" for i, q in action.required_items))
    return f"{action.name} ({', '.join(details)}) - {source}"


def perception(world: World, *, now: datetime, node: str, reach: int, people: Sequence[tuple[str, str, str]],
               money: int, items: dict[str, int], weather: str, conversations: int, style: str) -> str:
    """The perception block. `people`: (id, name, node) of the agents in range."""
    in_range = world.map.in_range(node, reach)
    nodes = [n for n in in_range if n != node and world.map.passable(n)]
    visible = set(in_range)
    npcs = [n for n in world.map.npcs if n.node in visible]
    buildings = sorted((b for b in world.map.buildings if any(n in visible for n in b.walls + b.interior + b.doors)),
                       key=lambda b: b.building_id)
    lines = [
        f"現在時刻: {world_time(now)}",
        f"天気: {weather}",
        f"現在地: {node_with_label(world, node, spaced=True)}",
        "近くのノード: " + (", ".join(node_with_label(world, n, spaced=False) for n in nodes) or "なし"),
    ]
    if style == "new":
        lines.append(f"近くのエージェント: {len(people)} 人" if people else "近くのエージェント: なし")
    else:
        lines.append("見えているエージェント: " + (" / ".join(f"{name}@{at}" for _, name, at in people) or "なし"))
    lines.append("近くのNPC: " + (" / ".join(f"{n.name}@{n.node}" for n in npcs) or "なし"))
    lines.append("近くの建物: " + (" / ".join(f"{b.name} [{', '.join(b.doors)}]" for b in buildings) or "なし"))
    if style == "new":
        lines.append(f"近くの会話: {conversations} 件" if conversations else "近くの会話: なし")
        lines.append("サーバーイベント: なし")
    lines.append(f"所持金: {yen(money)}")
    count = sum(items.values())
    if style == "new":
        lines.append(f"所持品: {count} 個" if count else "所持品: なし")
    else:
        held = [f"{ITEM_NAMES.get(i, i)} ({i}) ×{q}" for i, q in sorted(items.items()) if q > 0]
        lines.append("アイテム: " + (", ".join(held) or "なし"))
    return "\n".join(lines)


INFO_LINES = {
    "get_available_actions": "- get_available_actions: 現在位置で実行可能なアクションを取得する",
    "get_perception": "- get_perception: 周囲の情報を取得する",
    "get_map": "- get_map: マップ全体の情報を取得する",
    "get_world_agents": "- get_world_agents: 全エージェントの位置と状態を取得する",
    "get_status": "- get_status: 自分の所持金・所持品・現在地を取得する",
    "get_nearby_agents": "- get_nearby_agents: 隣接エージェントの一覧を取得する",
    "get_active_conversations": "- get_active_conversations: 参加可能な進行中の会話一覧を取得する",
}
OLD_INFO = ("get_available_actions", "get_perception", "get_map", "get_world_agents")


def idle_choices(*, actions: Sequence[tuple[Action, str]], items: dict[str, int], money: int,
                 candidates: Sequence[tuple[str, str]], transfer_candidates: Sequence[tuple[str, str]],
                 info: Iterable[str], style: str, joinable: Sequence[tuple[str, str]] = ()) -> str:
    """The `選択肢:` block of an idle agent (domain/choices.ts), in either generation.

    `joinable`: (conversation id, its participants' names joined with ' と ') of talks nearby."""
    lines = [f"- action: {action_line(a, source)}" for a, source in actions]
    held = sorted(i for i, q in items.items() if q > 0)
    transfers = style != "oldest"
    if style == "new":
        if held:
            lines.append("- use-item: アイテムを使用する (item_id: 使用するアイテムのID)")
        if (held or money > 0) and transfer_candidates:
            lines.append("- transfer: 近くのエージェントにアイテム/お金を譲渡する (target_agent_id: ID, "
                         "item: { item_id: ID, quantity: N } または money: 金額)")
        lines.append("- move: ノードIDを指定して移動する (target_node_id: ノードID)")
        lines.append("- wait: その場で待機する (duration: 1〜6、10分単位)")
        if candidates:
            lines.append("- conversation_start: 隣接エージェントに話しかける (target_agent_id: ID, message: 最初のメッセージ)")
        if joinable:
            lines.append("- conversation_join: 進行中の会話に参加する (conversation_id: ID)")
    else:
        lines += [f"- use-item: {ITEM_NAMES.get(i, i)} を使用する (item_id: {i})" for i in held]
        hint = " または ".join(([f"item: {{ item_id: {' or '.join(held)}, quantity: 数量 }}"] if held else [])
                              + (["money: 金額"] if money > 0 else []))
        if hint and transfers:
            lines += [f"- transfer: {name} に譲渡する (target_agent_id: {pid}, {hint})" for pid, name in transfer_candidates]
        lines.append("- move: ノードIDを指定して移動する (target_node_id: ノードID)")
        lines.append("- wait: その場で待機する (duration: 1〜6、10分単位)")
        lines += [f"- conversation_start: {name} に話しかける (target_agent_id: {pid}, message: 最初のメッセージ)"
                  for pid, name in candidates]
        lines += [f"- conversation_join: {names} の会話に参加する (conversation_id: {cid})" for cid, names in joinable]
    lines += [INFO_LINES[c] for c in info]
    return "選択肢:\n" + "\n".join(lines)


def participants_line(participants: Sequence[tuple[str, str]]) -> str | None:
    if not participants:
        return None
    return "参加者: " + "、".join(f"{name} (id: {pid})" for pid, name in participants)


def transfer_hint(items: dict[str, int], money: int) -> str:
    parts = []
    held = sorted(i for i, q in items.items() if q > 0)
    if held:
        parts.append(f"{{ item: {{ item_id: {' or '.join(held)}, quantity: 数量 }} }}")
    if money > 0:
        parts.append("{ money: 正の整数 }")
    if not parts:
        return ""
    body = parts[0] if len(parts) == 1 else f"{' または '.join(parts)} のどちらか1つ"
    return f", transfer?: {body}"


def conversation_choices(mode: str, group: bool, *, hint: str = "", pending: bool = False,
                         transfers: bool = True, end_command: str = "end_conversation") -> str:
    """The turn's choices; `transfers=False` is the engine before transfers existed (no hint, no response);
    `end_command`: the ending's name (`end_conversation`, or `conversation_end` as the contract also has it)."""
    response = ("transfer_response: accept または reject (届いている譲渡提案への応答)" if pending
                else "transfer_response?: accept|reject")
    lines = ["選択肢:"]
    if not transfers:
        if mode == "reply":
            lines.append("- conversation_speak: 返答する (message: 発言内容, next_speaker_agent_id: 次の話者ID)")
            lines.append(f"- {end_command}: 会話から退出する (message: 最後の発言, next_speaker_agent_id: 次の話者ID)"
                         if group else
                         f"- {end_command}: 会話を終了する (message: お別れのメッセージ, next_speaker_agent_id: 次の話者ID)")
        else:
            lines.append("- conversation_speak: お別れのメッセージを送る (message: 発言内容, next_speaker_agent_id: 次の話者ID)")
        return "\n".join(lines)
    if mode == "reply":
        lines.append(f"- conversation_speak: 返答する (message: 発言内容, next_speaker_agent_id: 次の話者ID{hint}, {response})")
        tail = f", {response})" if pending else ")"
        lines.append(f"- {end_command}: 会話から退出する (message: 最後の発言, next_speaker_agent_id: 次の話者ID" + tail
                     if group else
                     f"- {end_command}: 会話を終了する (message: お別れのメッセージ, next_speaker_agent_id: 次の話者ID" + tail)
    else:
        lines.append(f"- conversation_speak: お別れのメッセージを送る (message: 発言内容, next_speaker_agent_id: 次の話者ID, {response})")
    return "\n".join(lines)


def pending_transfer_line(from_name: str, summary: str) -> str:
    return (f"{from_name} から {summary} の譲渡提案が届いています（次の発話で transfer_response: accept または reject "
            "を指定。省略すると自動 reject）。")


def transfer_summary(item: tuple[str, int] | None, money: int) -> str:
    if item:
        return f"{item[0]}×{item[1]}"
    return yen(money) if money > 0 else "(空)"


def request_text(world: Named, agent_name: str, initiator: str, message: str) -> str:
    choices = "選択肢:\n- conversation_accept: 会話を受諾して返答する (message: 発言内容)\n- conversation_reject: 会話を拒否する"
    return sections(header(world, agent_name), f"{initiator} が話しかけています。", f"「{message}」", prompt(choices))


def reply_text(world: Named, agent_name: str, participants: Sequence[tuple[str, str]], speaker: str, message: str,
               note: str | None, choices: str, *, closing: bool) -> str:
    return sections(header(world, agent_name), participants_line(participants), f"{speaker}: 「{message}」", note,
                    "これが最後のメッセージです。" if closing else None, prompt(choices))


def turn_text(world: World, agent_name: str, participants: Sequence[tuple[str, str]], note: str | None,
              choices: str, *, closing: bool) -> str:
    return sections(header(world, agent_name), participants_line(participants), note,
                    "あなたが最後のメッセージを送る番です。" if closing else "あなたの番です。", prompt(choices))


def announcement_closing_text(world: World, agent_name: str, participants: Sequence[tuple[str, str]],
                              choices: str) -> str:
    return sections(header(world, agent_name), participants_line(participants),
                    "サーバーアナウンスにより会話が終了します。", prompt(choices))


def fyi_text(speaker: str, message: str, next_name: str | None) -> str:
    return f"{speaker}: 「{message}」\n次は {next_name} の番です。" if next_name else f"{speaker}: 「{message}」"


def leave_text(name: str, message: str | None, next_name: str | None) -> str:
    parts = [f"🔔 {name} が会話から離れました。"]
    if message:
        parts.append(f"「{message}」")
    if next_name:
        parts.append(f"次は {next_name} の番です。")
    return "\n".join(parts)


def inactive_check_text(world: World, agent_name: str) -> str:
    choices = "選択肢:\n- conversation_stay: 会話に残る\n- conversation_leave: 会話から離れる (message: 任意)"
    return sections(header(world, agent_name), "しばらく会話に関与していないため、会話を続けるか確認しています。",
                    prompt(choices))


CLOSURE = {
    "max_turns": "最大ターン数に到達しました",
    "turn_timeout": "応答がタイムアウトしました",
    "server_announcement": "サーバーアナウンスにより終了しました",
    "ended_by_agent": "エージェントにより終了しました",
}
REJECTION = {
    "rejected": "{name} が会話を拒否しました。",
    "timeout": "{name} が応答しませんでした。",
}


def event_line(kind: str, **facts: str) -> str:
    """The first line of an idle prompt: what just happened."""
    if kind == "logged_in":
        return "世界にログインしました。"
    if kind == "movement_completed":
        return f"{facts['destination']} に到着しました。"
    if kind == "action_completed":
        return f"「{facts['action']}」が完了しました。"
    if kind == "action_rejected":
        return f"「{facts['action']}」を実行できませんでした。{facts['reason']}。"
    if kind == "wait_completed":
        return f"{facts['minutes']}分間待機しました。"
    if kind == "idle_reminder":
        return f"前回の行動から{facts['minutes']}分間が経過しました。"
    if kind == "conversation_ended":
        return f"会話が終了しました。（{CLOSURE[facts['reason']]}）"
    if kind == "conversation_rejected":
        return REJECTION[facts["reason"]].format(name=facts["name"])
    if kind == "item_used":
        return f"「{facts['item']}」を{facts['verb']}。"
    if kind == "item_venue_rejected":
        return f"ここでは「{facts['item']}」を利用できません。{facts['hints']}"
    if kind == "transfer_accepted":
        return f"{facts['name']} から {facts['summary']}を受け取りました。"
    if kind == "transfer_rejected":
        return "受取を拒否しました。"
    return ""


def idle_text(world: World, agent_name: str, event: str, perception_text: str, choices: str) -> str:
    return sections(header(world, agent_name), event, perception_text, prompt(choices))


def announcement_text(world: World, agent_name: str, description: str, choices: str) -> str:
    return sections(header(world, agent_name), f"【サーバーアナウンス】\n{description}", choices,
                    "現在の行動をキャンセルして選択するか、この通知を無視してください。",
                    f"{SKILL} スキルで行動を選択してください。")


def info_text(world: World, agent_name: str, body: str, choices: str) -> str:
    return sections(header(world, agent_name), body, prompt(choices))


def transfer_request_text(world: World, agent_name: str, from_name: str, summary: str) -> str:
    choices = "選択肢:\n- accept_transfer: 譲渡を受け入れる\n- reject_transfer: 譲渡を拒否する"
    return sections(header(world, agent_name), f"{from_name} から {summary} の譲渡提案が届きました。", prompt(choices))




def map_summary(world_map: Map) -> str:
    """`get_map`'s answer as the engine writes it (domain/map-summary.ts): the size, each building with its
    entrances, each NPC with its node; `なし` for none."""
    buildings = [f"  {b.name} [入口: {', '.join(b.doors)}] - {b.name}の{b.word}" for b in world_map.buildings]
    npcs = [f"  {n.name} @ {n.node} - {n.name}がいる" for n in world_map.npcs]
    return "\n".join([f"マップ: {world_map.rows}行 × {world_map.cols}列", "", "建物:", *(buildings or ["  なし"]),
                      "", "NPC:", *(npcs or ["  なし"])])
