"""Conversation notifications as the real engine words them, for the turn tests and their fuzz.

Written from reading the engine's notification formatter (KarakuriAgent/karakuri-world,
apps/server/src/discord/notification.ts): its sections joined by a blank line, the
`参加者:` line of the conversation as it stands, the speaker's line, the inline note
of an offer awaiting the next turn, and the choices as the contract's JSON gives them.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Sequence

from karakuri_agent.domain.notification import Notification
from karakuri_agent.domain.records import Meeting, Person
from karakuri_agent.mind.view import View
from karakuri_agent.memory.context import Identity, parse
from karakuri_agent.voice.persona_pack import load_persona
from testing.samples import SELF_ID, SELF_NAME
from testing.store_rows import as_places

NOW = datetime(2026, 4, 18, 3, 0, tzinfo=timezone.utc)  # 12:00 in the town (Asia/Tokyo)
ME = Identity(SELF_ID, SELF_NAME)
MEI = {"id": "1474403124906295517", "name": "桜草メイ"}
KOU = {"id": "1462098815530061904", "name": "黒瀬コウ"}
SORA = {"id": "1481220937745113088", "name": "時雨ソラ"}
YUU = {"id": "1499000000000000001", "name": "灯屋ユウ"}
SELF = {"id": ME.agent_id, "name": ME.name}
PEOPLE = (MEI, KOU, SORA, YUU)

HEADER = ("あなた (AIニケちゃん) は仮想世界「からくり町」にログインしています。\n"
          "どこにでもありそうな日本の小さな町。神社や学校、商店街に映画館。穏やかな日常が流れている。")
PROMPT = "karakuri-world スキルで次の行動を選択してください。"
RESPONSE_HINT = "transfer_response: accept または reject (届いている譲渡提案への応答)"
ANNOUNCEMENT_CLOSING = "サーバーアナウンスにより会話が終了します。"


def offer_note(sender: dict[str, str], summary: str) -> str:
    """The engine's inline note of an offer that the next turn answers."""
    return (f"{sender['name']} から {summary} の譲渡提案が届いています（次の発話で transfer_response: "
            "accept または reject を指定。省略すると自動 reject）。")


def roster_line(people: Sequence[dict[str, str]]) -> str:
    return "参加者: " + "、".join(f"{p['name']} (id: {p['id']})" for p in people)


def turn_text(participants: Sequence[dict[str, str]] | None, *, speaker: dict[str, str] | None = None,
              message: str = "", note: str | None = None, closing: bool = False, announcement: bool = False,
              pending: bool = False) -> str:
    """A reply, closing or announcement-closing prompt's text, with its choices block."""
    group = participants is not None and len(participants) > 2
    hint = f", {RESPONSE_HINT}" if pending else ""
    if closing or announcement:
        choices = ["- conversation_speak: お別れのメッセージを送る (message: 発言内容, next_speaker_agent_id: 次の話者ID, "
                   + (RESPONSE_HINT if pending else "transfer_response?: accept|reject") + ")"]
    else:
        end = "会話から退出する (message: 最後の発言" if group else "会話を終了する (message: お別れのメッセージ"
        choices = [f"- conversation_speak: 返答する (message: 発言内容, next_speaker_agent_id: 次の話者ID"
                   f"{hint or ', transfer_response?: accept|reject'})",
                   f"- end_conversation: {end}, next_speaker_agent_id: 次の話者ID{hint})"]
    sections = [HEADER]
    if participants is not None:
        sections.append(roster_line(participants))
    if announcement:
        sections.append(ANNOUNCEMENT_CLOSING)
    elif speaker is not None:
        sections.append(f"{speaker['name']}: 「{message}」")
    if note:
        sections.append(note)
    if closing:
        sections.append("これが最後のメッセージです。")
    sections.append("\n".join(["選択肢:", *choices]))
    sections.append(PROMPT)
    return "\n\n".join(sections)


def turn_choices(*, enum: Sequence[str] | None = None, pending: bool = False, closing: bool = False,
                 end_command: str = "end_conversation", optional_response: bool = True) -> list[dict[str, Any]]:
    """The turn's choices as the contract's JSON gives them (`transfer_response` required when an offer awaits)."""
    speaker: dict[str, Any] = {"type": "string", "description": "次の話者ID"}
    if enum is not None:
        speaker["enum"] = list(enum)
    fields: dict[str, Any] = {"message": {"type": "string", "maxLength": 200}, "next_speaker_agent_id": speaker}
    if pending or optional_response:
        fields["transfer_response"] = {"type": "string", "enum": ["accept", "reject"]}
    required = ["message", "next_speaker_agent_id"] + (["transfer_response"] if pending else [])
    speak = {"command": "conversation_speak", "description": "お別れのメッセージを送る" if closing else "返答する",
             "required_params": required, "param_schema": fields}
    if closing:
        return [speak]
    end_fields = {k: v for k, v in fields.items()}
    return [speak, {"command": end_command, "description": "会話を終了する", "required_params": required,
                    "param_schema": end_fields}]


def notification(text: str, choices: list[dict[str, Any]], *, kind: str = "conversation_message",
                 participants: Sequence[dict[str, str]] | None = None,
                 messages: Sequence[dict[str, str]] | None = None, nid: str = "notif-turn",
                 created_at: datetime = NOW) -> Notification:
    body: dict[str, Any] = {"type": kind, "text": text, "choices": choices}
    if participants is not None:
        body["participants"] = [dict(p) for p in participants]
    if messages is not None:
        body["conversation_messages"] = [dict(m) for m in messages]
    raw = {"notification_id": nid, "created_at": created_at.isoformat(), "expires_at": "2099-01-01T00:00:00Z",
           "notification": body}
    return Notification.from_json(raw, requested_id=nid)


def view_of(note: Notification, *, policy: str = "known", met: Sequence[dict[str, str]] = (),
            pending_commitments: Sequence[Meeting] = (), places: Sequence[dict[str, Any]] = (),
            now: datetime = NOW, roster: dict[str, str] | None = None) -> View:
    """The View a decider sees for this notification: parsed as the cycle parses it."""
    people = [Person(p["id"], p["name"], interactions=3) for p in met]
    return View(
        notification_id=note.notification_id,
        choices=note.choices,
        parsed=parse(note, roster=roster or {}, me=ME),
        pending=list(pending_commitments), people=people,
        me=ME,
        now=now,
        persona=load_persona(),
        places=as_places(places),
        transfer_policy=policy,
        text=note.notification.text,
    )
