"""The one-line report's wording, in Japanese: what was done, for whom, where; and why nothing was."""

from __future__ import annotations

import re

from karakuri_agent.ja.name_words import HONORIFICS

PREFIX = "からくり: "

# Notification type → what was received.
SUMMARIES = {
    "conversation_requested": "会話の誘いを確認",
    "conversation_message": "会話の発言を確認",
    "conversation_inactive_check": "会話の継続確認を受信",
    "conversation_closing": "会話終了の案内を確認",
    "conversation_ended": "会話終了通知を確認",
    "conversation_rejected": "会話拒否通知を確認",
    "conversation_accepted": "会話開始通知を確認",
    "conversation_pending_join_cancelled": "会話参加の取り消し通知を確認",
    "idle_reminder_fired": "待機の催促を確認",
    "movement_completed": "到着通知を確認",
    "action_completed": "行動完了通知を確認",
    "transfer_requested": "譲渡の提案を確認",
    "transfer_accepted": "譲渡成立の通知を確認",
    "transfer_rejected": "譲渡不成立の通知を確認",
    "transfer_cancelled": "譲渡取り消しの通知を確認",
    "agent_logged_in": "ログイン通知を確認",
    "agent_logged_out": "ログアウト通知を確認",
    "server_event": "町のイベント通知を確認",
}

DEFAULT_SUMMARY = "通知を確認"

# Command → what is done: (as planned, as done). No 。 at the end.
ACTIONS = {
    "move": ("移動を始める", "移動を始めました"),
    "action": ("その場の行動を始める", "その場の行動を始めました"),
    "use_item": ("持ち物を使う", "持ち物を使いました"),
    "wait": ("その場で少し待つことにする", "その場で少し待つことにしました"),
    "transfer": ("譲渡を申し出る", "譲渡を申し出ました"),
    "transfer_accept": ("譲渡を受け取る", "譲渡を受け取りました"),
    "accept_transfer": ("譲渡を受け取る", "譲渡を受け取りました"),
    "transfer_reject": ("譲渡をお断りする", "譲渡をお断りしました"),
    "reject_transfer": ("譲渡をお断りする", "譲渡をお断りしました"),
    "conversation_start": ("近くの人に話しかける", "近くの人に話しかけました"),
    "conversation_accept": ("会話を受けて返事をする", "会話を受けて返事をしました"),
    "conversation_reject": ("会話をお断りする", "会話をお断りしました"),
    "conversation_join": ("会話に加わる", "会話に加わりました"),
    "conversation_stay": ("会話を続けることにする", "会話を続けることにしました"),
    "conversation_leave": ("挨拶をして会話を抜ける", "挨拶をして会話を抜けました"),
    "conversation_speak": ("会話で返事をする", "会話で返事をしました"),
    "conversation_end": ("挨拶をして会話を終える", "挨拶をして会話を終えました"),
    "end_conversation": ("挨拶をして会話を終える", "挨拶をして会話を終えました"),
    "get_perception": ("周りの様子を確かめる", "周りの様子を確かめました"),
    "get_available_actions": ("ここでできることを確かめる", "ここでできることを確かめました"),
    "get_map": ("町の地図を確かめる", "町の地図を確かめました"),
    "get_world_agents": ("町のみんなの居場所を確かめる", "町のみんなの居場所を確かめました"),
    "get_status": ("自分の持ち物と所持金を確かめる", "自分の持ち物と所持金を確かめました"),
    "get_nearby_agents": ("近くにいる人を確かめる", "近くにいる人を確かめました"),
    "get_active_conversations": ("近くの会話を確かめる", "近くの会話を確かめました"),
    "get_event": ("町のイベントを確かめる", "町のイベントを確かめました"),
}

DEFAULT_ACTION = ("選んだ行動を実行する", "選んだ行動を実行しました")

WAITING = "追加操作はせず、次の通知を待ちます"

NO_ID = PREFIX + "通知のないメッセージを確認。追加操作なし。"

DISABLED = PREFIX + "通知を確認。自動応答は停止中のため、追加操作なし。"

PROCESSED = PREFIX + f"通知は処理済みでした。{WAITING}。"

EXPIRED = PREFIX + f"通知の期限が切れていました。{WAITING}。"

ALREADY_HANDLED = PREFIX + f"この通知には対応済みです。{WAITING}。"

FAILED = PREFIX + f"通知の処理に失敗しました。{WAITING}。"

INTERRUPTED = PREFIX + "通知の処理を途中で止めました。何も送っていません。"

UNKNOWN_OUTCOME = PREFIX + f"行動の結果を確認できませんでした。{WAITING}。"

STALE = PREFIX + f"新しい通知が届いていたため、この通知では動きませんでした。{WAITING}。"

# Internal words and shapes that must never reach a report, whatever a name says.
FORBIDDEN = ("WorkflowReport", "MCP", "hook", "DB", "Supabase", "activity log", "API", "マスター", "notif-")

UNSAFE = re.compile(r"[@<>#`\n\r。]|https?:|[・*-]\s")

QUOTE_PAIRS = {"「": "」", "『": "』", '"': '"', "'": "'"}

NO_CHOICES = "選択肢がないため、"

COOLING_DOWN = "少し間を置くため、"


def person(name: str) -> str:
    return name if name.endswith(HONORIFICS) else f"{name}さん"


def described(command: str, *, place: str | None, action: str | None, item: str | None, partner: str | None,
              promise: bool, gift: str = "") -> tuple[str, str] | None:
    """(as planned, as done) naming what is known (names already cleaned); None for the generic table entry.

    `gift`: the turn also answered an offer made in the conversation (`accept` or `reject`).
    """
    who = person(partner) if partner else None
    if gift and command in _TURNS and (who or item):
        return _answered_offer(command, who, item, taken=gift == "accept")
    if command == "move" and promise:
        where = f"約束の{place}" if place else "約束の場所"
        return f"{where}へ向かう", f"{where}へ向かいます"
    if command == "move" and place:
        return f"{place}へ移動する", f"{place}への移動を始めました"
    if command == "action" and (place or action):
        if place and action and names_place(action, place):
            place = None  # パン屋で働く at the パン屋: the action already says where
        doing = f"{place}で{action}" if place and action else action or f"{place}で過ごす"
        return doing, f"{doing}行動を始めました"
    if command == "wait" and promise:
        whom = f"{who}を" if who else ""
        where = f"約束の{place}" if place else "約束の場所"
        return f"{where}で{whom}待つ", f"{where}で{whom}待つことにしました"
    if command == "use_item" and item:
        return f"{item}を使う", f"{item}を使いました"
    if command == "transfer" and who:
        what = item or "贈り物"
        return f"{who}に{what}を渡す", f"{who}に{what}を渡す申し出をしました"
    if command in ("transfer_accept", "accept_transfer") and (who or item):
        given = f"{who}から{item}" if who and item else f"{who}からの贈り物" if who else item
        return f"{given}を受け取る", f"{given}を受け取りました"
    if command in ("transfer_reject", "reject_transfer") and who:
        offer = f"{who}からの{item}の申し出" if item else f"{who}からの譲渡の申し出"
        return f"{offer}をお断りする", f"{offer}をお断りしました"
    if who is None:
        return None
    return {
        "conversation_start": (f"{who}に話しかける", f"{who}に話しかけました"),
        "conversation_accept": (f"{who}に返事をして会話を始める", f"{who}に返事をして会話を始めました"),
        "conversation_reject": (f"{who}との会話をお断りする", f"{who}との会話をお断りしました"),
        "conversation_join": (f"{who}たちの会話に加わる", f"{who}たちの会話に加わりました"),
        "conversation_stay": (f"{who}との会話を続けることにする", f"{who}との会話を続けることにしました"),
        "conversation_leave": (f"{who}に挨拶をして会話を抜ける", f"{who}に挨拶をして会話を抜けました"),
        "conversation_speak": (f"{who}に返事をする", f"{who}に返事をしました"),
        "conversation_end": (f"{who}に挨拶をして会話を終える", f"{who}に挨拶をして会話を終えました"),
        "end_conversation": (f"{who}に挨拶をして会話を終える", f"{who}に挨拶をして会話を終えました"),
    }.get(command)


def names_place(action: str, place: str) -> bool:
    """The action's own name says where it happens (パン屋で働く, 喫茶店「さくら」 in さくらでお茶): the place is not said twice."""
    kind = re.split(r"[\s「]", place, maxsplit=1)[0]
    proper = re.search(r"「([^」]+)」", place)
    return place in action or (len(kind) >= 2 and kind in action) or bool(proper and proper.group(1) in action)


_TURNS = ("conversation_speak", "conversation_end", "end_conversation")


def _answered_offer(command: str, who: str | None, item: str | None, *, taken: bool) -> tuple[str, str]:
    """A turn that took or declined a gift: `桜草メイさんから500円を受け取り、返事をしました`."""
    if taken:
        given = f"{who}から{item}" if who and item else f"{who}からの贈り物" if who else item
        head = f"{given}を受け取り"
    else:
        head = (f"{who}からの{item}の申し出" if who and item else f"{who}からの譲渡の申し出" if who
                else f"{item}の申し出") + "をお断りし"
    if command == "conversation_speak":
        return f"{head}、返事をする", f"{head}、返事をしました"
    return f"{head}、挨拶をして会話を終える", f"{head}、挨拶をして会話を終えました"


def accepted(summary: str, done: str, *, newer: bool = False, arrives: str | None = None,
             completes: str | None = None) -> str:
    """The report of a command the server accepted: what the notification was, what was done, by when."""
    if arrives is not None:
        done += f"（到着予定 {arrives}）"
    elif completes is not None:
        done += f"（完了予定 {completes}）"
    lead = "新しい通知で" if newer else ""
    return f"{PREFIX}{lead}{summary}。{done}。"


def planned(summary: str, plan: str) -> str:
    """The report of a dry run: what would be sent."""
    return f"{PREFIX}{summary}。{plan}予定です（ドライラン）。"


def idle(summary: str, why: str = "") -> str:
    """Seen, nothing done: `why` is one of the fixed phrases above."""
    return f"{PREFIX}{summary}。{why}追加操作なし。"
