"""The JSON `choices` of a notification, in every shape the contract allows, matching the text's 選択肢 lines.

Seeded variation (kept in `variant` for the run's coverage):
- `param_schema` flat with `required_params`, or a JSON Schema object with `required`;
- ids with an `enum` of the valid values, or a free string (then only the text tells them);
- `description`, `label`, or no text at all;
- actions as one choice per action (`params: {action_id}` and its own
  duration range) or one generic `action` choice (`action_id` enum or free);
- a pending offer's `transfer_response` required, or optional as the engine's schema has it.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from .world import Action

MESSAGE_LIMITS = (200, 200, 140, 100)


class Choices:
    def __init__(self, rng: random.Random, *, enums: float, json_schema: float, per_action: float = 0.75,
                 labelled: bool = False) -> None:
        """`labelled`: every choice has its `label` (the newer API's choices always do)."""
        self.rng = rng
        self.per_action = per_action
        self.labelled = labelled
        self.enums = enums  # share of id fields that carry an enum
        self.json_schema = json_schema
        self.limit = rng.choice(MESSAGE_LIMITS)
        self.variant: dict[str, int] = {}

    def _count(self, key: str) -> None:
        self.variant[key] = self.variant.get(key, 0) + 1

    def make(self, command: str, text: str, fields: dict[str, Any] | None = None, required: Sequence[str] = (),
             params: dict[str, Any] | None = None) -> dict[str, Any]:
        choice: dict[str, Any] = {"command": command}
        roll = self.rng.random()
        key = "label" if self.labelled else "description" if roll < 0.7 else "label" if roll < 0.95 else "no_text"
        if key != "no_text":
            choice[key] = text
        self._count(key)
        choice["params"] = dict(params or {})
        if fields:
            if self.rng.random() < self.json_schema:
                choice["param_schema"] = {"type": "object", "properties": fields, "required": list(required)}
                self._count("json_schema")
            else:
                choice["param_schema"] = fields
                choice["required_params"] = list(required)
                self._count("flat_schema")
        return choice

    def _id(self, description: str, values: Sequence[str]) -> dict[str, Any]:
        spec: dict[str, Any] = {"type": "string", "description": description}
        if values and self.rng.random() < self.enums:
            spec["enum"] = list(values)
            self._count("enum")
        else:
            self._count("free_id")
        return spec

    def message(self, description: str = "発言内容") -> dict[str, Any]:
        return {"type": "string", "description": description, "minLength": 1, "maxLength": self.limit}

    # ------------------------------------------------------------------ idle
    def actions(self, actions: Sequence[tuple[Action, str, str]]) -> list[dict[str, Any]]:
        """`(action, source, line)` triples -> per-action choices, or one generic choice."""
        if not actions:
            return []
        if self.rng.random() < self.per_action:
            out = []
            for action, _, line in actions:
                fields: dict[str, Any] = {}
                required: list[str] = []
                if action.ranged:
                    fields["duration_minutes"] = {"type": "integer", "minimum": action.min_minutes,
                                                  "maximum": action.max_minutes, "description": "実行時間（分）"}
                    required.append("duration_minutes")
                out.append(self.make("action", line, fields or None, required, {"action_id": action.action_id}))
            self._count("per_action")
            return out
        self._count("generic_action")
        ids = [a.action_id for a, _, _ in actions]
        fields = {"action_id": self._id("実行するアクションのID", ids)}
        if any(a.ranged for a, _, _ in actions):
            fields["duration_minutes"] = {"type": "integer", "minimum": 1, "description": "分数（範囲のあるアクションのみ）"}
        return [self.make("action", "アクションを実行する", fields, ["action_id"])]

    def use_item(self, held: Sequence[str]) -> dict[str, Any]:
        return self.make("use-item", "アイテムを使用する", {"item_id": self._id("使用するアイテムのID", held)}, ["item_id"])

    def transfer(self, targets: Sequence[str], held: Sequence[str]) -> dict[str, Any]:
        fields = {
            "target_agent_id": self._id("譲渡先のID", targets),
            "item": {"type": "object", "properties": {"item_id": self._id("アイテムID", held),
                                                      "quantity": {"type": "integer", "minimum": 1}},
                     "required": ["item_id", "quantity"]},
            "money": {"type": "integer", "minimum": 1},
        }
        return self.make("transfer", "近くのエージェントにアイテム/お金を譲渡する", fields, ["target_agent_id"])

    def move(self, nodes: Sequence[str]) -> dict[str, Any]:
        return self.make("move", "ノードIDを指定して移動する", {"target_node_id": self._id("移動先のノードID", nodes)},
                         ["target_node_id"])

    def wait(self) -> dict[str, Any]:
        return self.make("wait", "その場で待機する", {"duration": {"type": "integer", "minimum": 1, "maximum": 6,
                                                             "description": "10分単位"}}, ["duration"])

    def conversation_start(self, targets: Sequence[str]) -> dict[str, Any]:
        fields = {"target_agent_id": self._id("話しかける相手のID", targets), "message": self.message("最初のメッセージ")}
        return self.make("conversation_start", "隣接エージェントに話しかける", fields, ["target_agent_id", "message"])

    def join(self, conversations: Sequence[str]) -> dict[str, Any]:
        return self.make("conversation_join", "進行中の会話に参加する",
                         {"conversation_id": self._id("参加する会話のID", conversations)}, ["conversation_id"])

    def info(self, command: str, text: str) -> dict[str, Any]:
        return self.make(command, text)

    # ------------------------------------------------------------------ conversation
    def accept(self) -> dict[str, Any]:
        return self.make("conversation_accept", "会話を受諾して返答する", {"message": self.message()}, ["message"])

    def reject(self) -> dict[str, Any]:
        return self.make("conversation_reject", "会話を拒否する")

    def speak(self, others: Sequence[str], *, closing: bool, pending: bool, can_give: bool,
              held: Sequence[str], transfers: bool = True) -> dict[str, Any]:
        fields: dict[str, Any] = {"message": self.message(), "next_speaker_agent_id": self._id("次の話者ID", others)}
        required = ["message", "next_speaker_agent_id"]
        if not transfers:
            return self.make("conversation_speak", "お別れのメッセージを送る" if closing else "返答する", fields, required)
        if pending:
            fields["transfer_response"] = {"type": "string", "enum": ["accept", "reject"],
                                           "description": "届いている譲渡提案への応答"}
            if self.rng.random() < 0.5:
                required.append("transfer_response")
                self._count("transfer_response_required")
        elif self.rng.random() < 0.5:
            fields["transfer_response"] = {"type": "string", "enum": ["accept", "reject"]}
        if can_give and not closing:
            fields["transfer"] = {"type": "object", "properties": {
                "item": {"type": "object", "properties": {"item_id": self._id("アイテムID", held),
                                                          "quantity": {"type": "integer", "minimum": 1}},
                         "required": ["item_id", "quantity"]},
                "money": {"type": "integer", "minimum": 1}}}
        text = "お別れのメッセージを送る" if closing else "返答する"
        return self.make("conversation_speak", text, fields, required)

    def end(self, others: Sequence[str], *, group: bool, pending: bool) -> dict[str, Any]:
        fields: dict[str, Any] = {"message": self.message("最後の発言" if group else "お別れのメッセージ"),
                                  "next_speaker_agent_id": self._id("次の話者ID", others)}
        if pending:
            fields["transfer_response"] = {"type": "string", "enum": ["accept", "reject"]}
        text = "会話から退出する" if group else "会話を終了する"
        return self.make("end_conversation", text, fields, ["message", "next_speaker_agent_id"])

    def stay(self) -> dict[str, Any]:
        return self.make("conversation_stay", "会話に残る")

    def leave(self) -> dict[str, Any]:
        return self.make("conversation_leave", "会話から離れる", {"message": {"type": "string", "description": "任意"}})

    def transfer_answer(self, accept: bool, sender: str) -> dict[str, Any]:
        if accept:
            return self.make("accept_transfer", f"{sender} からの譲渡を受け取る")
        return self.make("reject_transfer", f"{sender} からの譲渡を断る")
