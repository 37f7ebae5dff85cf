"""Notification texts in the real server's format, and choices in every shape the contract allows.

The formats follow `shared/examples/real-texts.json`: the two header lines,
the event line, the location block (`現在地: 4-2 (喫茶店 店内)`,
`近くのノード: …`, `近くのエージェント: N 人`), `参加者: 名前 (id: N)、…`,
`名前: 「…」`, and the `選択肢:` block, whose action lines carry the
action ids (`- action: コーヒーを飲む (action_id: drink-coffee, 3600秒, 450円) - 喫茶店「さくら」`).

`ChoiceBuilder` varies each choice (seeded): `description` or `label`, a flat
`param_schema` with `required_params` or a JSON Schema object with
`required`, enum or free string targets, and the message `maxLength`. What it
chose is kept in `variant` so the benchmark can show the coverage.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import datetime
from typing import Any, Iterable, Sequence
from zoneinfo import ZoneInfo

from .world import SELF_NAME, Action, Place, World

TOKYO = ZoneInfo("Asia/Tokyo")
WEATHERS = ("はれ 20℃", "くもり 18℃", "小雨 16℃", "雪 2℃", "快晴 27℃")
FOOTER = "karakuri-world スキルで次の行動を選択してください。"
MESSAGE_LIMITS = (200, 200, 200, 140, 100, 60)
INFO_TEXT = {
    "get_available_actions": "現在位置で実行可能なアクションを取得する",
    "get_perception": "周囲の情報を取得する",
    "get_map": "マップ全体の情報を取得する",
    "get_world_agents": "全エージェントの位置と状態を取得する",
    "get_status": "自分の所持金・所持品・現在地を取得する",
    "get_nearby_agents": "隣接エージェントの一覧を取得する",
}
PARAM_HINTS = {
    "move": " (target_node_id: ノードID)",
    "wait": " (duration: 1〜6、10分単位)",
    "conversation_start": " (target_agent_id: ID, message: 最初のメッセージ)",
    "use-item": " (item_id: 使用するアイテムのID)",
    "transfer": " (target_agent_id: ID, item: { item_id: ID, quantity: N } または money: 金額)",
    "conversation_accept": " (message: 発言内容)",
    "conversation_speak": " (message: 発言内容, next_speaker_agent_id: 次の話者ID)",
    "end_conversation": " (message: 最後の発言, next_speaker_agent_id: 次の話者ID)",
    "conversation_end": " (message: 最後の発言, next_speaker_agent_id: 次の話者ID)",
    "conversation_leave": " (message?: 最後の発言)",
}


class ChoiceBuilder:
    """Builds one notification's choices, varying their shape with the town's rng."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.shapes: Counter[str] = Counter()
        self.variant: dict[str, Any] = {}
        self.limit = rng.choice(MESSAGE_LIMITS)

    def _choice(self, command: str, text: str, fields: dict[str, Any] | None = None,
                required: Sequence[str] = (), params: dict[str, Any] | None = None) -> dict[str, Any]:
        choice: dict[str, Any] = {"command": command}
        roll = self.rng.random()
        key = "description" if roll < 0.45 else "label" if roll < 0.9 else "no_text"
        if key != "no_text":  # the contract lets a choice come without any text
            choice[key] = text
        self.shapes[key] += 1
        if params:
            choice["params"] = dict(params)
        if fields:
            if self.rng.random() < 0.5:
                choice["param_schema"] = fields
                if required:
                    choice["required_params"] = list(required)
                self.shapes["flat_schema"] += 1
            else:
                choice["param_schema"] = {"type": "object", "properties": fields, "required": list(required)}
                self.shapes["json_schema"] += 1
        self.variant["shapes"] = dict(self.shapes)
        return choice

    def _message(self) -> dict[str, Any]:
        self.variant["max_length"] = self.limit
        return {"type": "string", "description": "発言内容", "maxLength": self.limit}

    def plain(self, command: str, text: str) -> dict[str, Any]:
        return self._choice(command, text)

    def info(self, command: str) -> dict[str, Any]:
        return self._choice(command, INFO_TEXT[command])

    def actions(self, actions: Sequence[Action], style: str, place: Place) -> list[dict[str, Any]]:
        ids = [a.action_id for a in actions]
        duration = {"type": "integer", "minimum": 10, "maximum": 120, "description": "実行時間（分）"}
        if style == "per_action":
            out = []
            for action in actions:
                fields = {"action_id": {"type": "string", "enum": [action.action_id]}} if self.rng.random() < 0.5 else None
                out.append(self._choice("action", f"{action.name}（{place.word}）", fields, (),
                                        {"action_id": action.action_id}))
            return out
        spec: dict[str, Any] = {"type": "string", "description": "実行するアクションのID"}
        if style == "enum":
            spec["enum"] = ids
        fields = {"action_id": spec}
        if self.rng.random() < 0.3:
            fields["duration_minutes"] = duration
        return [self._choice("action", "アクションを実行する", fields, ("action_id",))]

    def use_item(self) -> dict[str, Any]:
        return self._choice("use-item", "アイテムを使用する", {"item_id": {"type": "string"}}, ("item_id",))

    def move(self, enum: list[str] | None) -> dict[str, Any]:
        spec: dict[str, Any] = {"type": "string", "description": "移動先のノードID"}
        if enum:
            spec["enum"] = enum
        return self._choice("move", "ノードIDを指定して移動する", {"target_node_id": spec}, ("target_node_id",))

    def wait(self) -> dict[str, Any]:
        spec = {"type": "integer", "minimum": 1, "maximum": 6, "description": "10分単位"}
        return self._choice("wait", "その場で待機する", {"duration": spec}, ("duration",))

    def transfer(self) -> dict[str, Any]:
        fields = {
            "target_agent_id": {"type": "string"},
            "item": {"type": "object", "properties": {"item_id": {"type": "string"},
                                                      "quantity": {"type": "integer", "minimum": 1}},
                     "required": ["item_id", "quantity"]},
            "money": {"type": "integer", "minimum": 1},
        }
        return self._choice("transfer", "近くのエージェントにアイテム/お金を譲渡する", fields, ("target_agent_id",))

    def conversation_start(self, enum: list[str] | None) -> dict[str, Any]:
        target: dict[str, Any] = {"type": "string", "description": "話しかける相手のID"}
        if enum:
            target["enum"] = enum
        return self._choice("conversation_start", "隣接エージェントに話しかける",
                            {"target_agent_id": target, "message": self._message()}, ("target_agent_id", "message"))

    def accept(self) -> dict[str, Any]:
        return self._choice("conversation_accept", "会話を受諾して返答する", {"message": self._message()}, ("message",))

    def reject(self) -> dict[str, Any]:
        return self._choice("conversation_reject", "会話を拒否する")

    def _next_speaker(self, partner_ids: list[str]) -> dict[str, Any]:
        spec: dict[str, Any] = {"type": "string", "description": "次の話者ID"}
        if self.rng.random() < 0.5:
            spec["enum"] = list(partner_ids)
            self.variant["next_speaker"] = "enum"
        else:
            self.variant["next_speaker"] = "free_string"
        return spec

    def speak(self, partner_ids: list[str], *, closing: bool = False) -> dict[str, Any]:
        fields: dict[str, Any] = {"message": self._message(), "next_speaker_agent_id": self._next_speaker(partner_ids)}
        if self.rng.random() < 0.3:
            fields["transfer_response"] = {"type": "string", "enum": ["accept", "reject"]}
        text = "お別れのメッセージを送る" if closing else "返答する"
        return self._choice("conversation_speak", text, fields, ("message", "next_speaker_agent_id"))

    def end(self, partner_ids: list[str]) -> dict[str, Any]:
        command = self.rng.choice(["end_conversation", "conversation_end"])
        self.variant["end_command"] = command
        fields = {"message": self._message(), "next_speaker_agent_id": self._next_speaker(partner_ids)}
        return self._choice(command, "会話から退出する", fields, ("message", "next_speaker_agent_id"))

    def stay(self) -> dict[str, Any]:
        return self._choice("conversation_stay", "会話に残る")

    def leave(self) -> dict[str, Any]:
        return self._choice("conversation_leave", "会話から抜ける", {"message": self._message()})


# ---------------------------------------------------------------------------- texts
def clock_line(now: datetime) -> str:
    return f"現在時刻: {now.astimezone(TOKYO):%Y-%m-%d %H:%M} (Asia/Tokyo)"


def choice_lines(choices: Iterable[dict[str, Any]], place: Place | None = None,
                 actions: Sequence[Action] = ()) -> list[str]:
    """The `選択肢:` block as people read it; the offered actions' ids are written here."""
    lines = ["選択肢:"]
    listed_actions = False
    for choice in choices:
        command = choice["command"]
        text = choice.get("description") or choice.get("label") or command
        if command == "action":
            if listed_actions or place is None:
                continue
            listed_actions = True
            for action in actions:
                cost = f", {action.cost:,}円" if action.cost else ""
                lines.append(f"- action: {action.name} (action_id: {action.action_id}, {action.seconds}秒{cost})"
                             f" - {place.building or place.word}")
            continue
        lines.append(f"- {command}: {text}{PARAM_HINTS.get(command, '')}")
    return lines


def free_text(world: World, event: str, *, now: datetime, here: Place, neighbours: list[str], named: bool,
              nearby_count: int, money: int, items: int, weather: str, choices: list[dict[str, Any]],
              actions: Sequence[Action], location: bool = True) -> str:
    if named:
        nodes = ", ".join(f"{n}({world.place_by_id[n].name})" for n in neighbours)
    else:
        nodes = ", ".join(neighbours)
    block = [
        clock_line(now),
        f"天気: {weather}",
        f"現在地: {here.label}",
        f"近くのノード: {nodes}",
        f"近くのエージェント: {nearby_count} 人",
    ]
    if named:
        buildings = [here] + [world.place_by_id[n] for n in neighbours]
        block.append("近くの建物: " + " / ".join(f"{p.building or p.word} [{p.node_id}]" for p in buildings))
    block += ["近くの会話: なし", "サーバーイベント: なし", f"所持金: {money:,}円", f"所持品: {items} 個"]
    offered_actions = any(c["command"] == "action" for c in choices)
    parts = [world.header, event] + (["\n".join(block)] if location else [])
    parts += ["\n".join(choice_lines(choices, here if offered_actions else None, actions)), FOOTER]
    return "\n\n".join(parts)


def participants_line(people: list[tuple[str, str]]) -> str:
    return "参加者: " + "、".join(f"{name} (id: {pid})" for name, pid in people)


def history_lines(history: Sequence[tuple[str, str]]) -> list[str]:
    """`名前: 「発言」` lines; a speaker of None is a notice line (`時雨ソラ が会話から離れました。`)."""
    return [f"{speaker}: 「{line}」" if speaker else line for speaker, line in history]


def request_text(world: World, name: str, line: str, participants: list[tuple[str, str]] | None,
                 choices: list[dict[str, Any]]) -> str:
    parts = [world.header, f"{name} が話しかけています。", f"「{line}」"]
    if participants:
        parts.append(participants_line(participants))
    parts += ["\n".join(choice_lines(choices)), FOOTER]
    return "\n\n".join(parts)


def turn_text(world: World, participants: list[tuple[str, str]], history: Sequence[tuple[str, str]],
              choices: list[dict[str, Any]], *, inactive: bool = False) -> str:
    parts = [world.header, participants_line(participants), "\n".join(history_lines(history))]
    if inactive:
        parts.append("しばらく発言がありません。会話を続けますか？")
    parts += ["\n".join(choice_lines(choices)), FOOTER]
    return "\n\n".join(parts)


def transfer_text(world: World, name: str, summary: str, choices: list[dict[str, Any]]) -> str:
    return "\n\n".join([world.header, f"{name} から {summary} の譲渡提案が届きました。",
                        "\n".join(choice_lines(choices)), FOOTER])


# ---------------------------------------------------------------------------- Discord bodies
# How the id may be written in a message (CONTRACT §1): plain, or with markup around it.
ID_MARKUP = (
    "notification_id: {id}",
    "`notification_id: {id}`",
    "**notification_id: {id}**",
    "(notification_id: {id})",
    "（notification_id: {id}）",
    "「notification_id: {id}」",
    "\"notification_id: {id}\"",
    "||notification_id: {id}||",
    "notification_id: {id}.",
    "notification_id: {id},",
    "[notification_id: {id}]",
)
TEMPLATES = (
    "{self} への通知があります。{id}",
    "🔔 {event}\n{id}",
    "{event}\n\n{id}",
    "📣 {self} さん、新しい通知です！\n> {event}\n{id}",
    "{id}\n{event}",
    "**{self}** への通知\n{event} {id}",
)
NO_ID_BODIES = (
    "ログアウトが完了しました。おやすみなさい。",
    "{self} への通知があります。notification_id: (なし)",
    "`notification_id: (なし)` 現在処理する通知はありません。",
    "みんなおはよう〜 今日もよろしくね！",
    "さっきのnotif-abc123ってなんだったんだろう？",
    "",
    "@everyone メンテナンスは22時からです。",
)


def discord_body(rng: random.Random, notification_id: str, event: str, plain_ids: float) -> tuple[str, str, str]:
    """A message carrying the id in one of the contract's forms: (body, template, markup).

    `plain_ids`: the share of messages with no markup around the id; the rest
    spread evenly over the markup forms.
    """
    markup = ID_MARKUP[0] if rng.random() < plain_ids else rng.choice(ID_MARKUP[1:])
    template = rng.choice(TEMPLATES)
    body = template.format(self=SELF_NAME, event=event, id=markup.format(id=notification_id))
    return body, f"template {TEMPLATES.index(template)}", markup.replace("{id}", "ID")


def chatter_body(rng: random.Random) -> str:
    """A message with no notification id: people in the channel, the logout line, `(なし)`."""
    return rng.choice(NO_ID_BODIES).format(self=SELF_NAME)


# ---------------------------------------------------------------------------- reading back
_NAMED_NODE = re.compile(r"(?<![\d-])(\d{1,4}-\d{1,4})(?![\d-])\s?[(（][^()（）\n]+[)）]")
_BUILDING = re.compile(r"\[(\d{1,4}-\d{1,4})\]")
_NODE = re.compile(r"(?<![\d-])(\d{1,4}-\d{1,4})(?![\d-])")


def named_nodes(text: str) -> list[str]:
    """Node ids written with a name (`2-3(図書館 館内)`, `本屋「栞」 [5-5]`)."""
    return list(dict.fromkeys(_NAMED_NODE.findall(text) + _BUILDING.findall(text)))


def node_ids(text: str, world: World) -> list[str]:
    return [n for n in dict.fromkeys(_NODE.findall(text)) if n in world.place_by_id]


def enum_values(choices: Iterable[dict[str, Any]], field: str) -> list[str]:
    values: list[str] = []
    for choice in choices:
        schema = choice.get("param_schema") or {}
        fields = schema.get("properties") if schema.get("type") == "object" else schema
        spec = (fields or {}).get(field) or {}
        values += [str(v) for v in spec.get("enum") or []]
    return values
