"""Why a built-in rule chose what it chose, in Japanese: people read these in `log` and `--explain`.

One function per reason, named for what it says, so a rule states its reason
without holding the words. `None` or an empty name gets the general word.
"""

from __future__ import annotations

SOMEONE = "相手"
MEETING_PLACE = "約束の場所"
NOTHING_TO_CHOOSE = "選べる行動がない"
CLOSING_GREETING = "会話の締めくくりに挨拶する"
TALKED_ENOUGH = "十分に話したので挨拶して会話を終える"
NO_REPLY_READY = "返事の内容が用意できないので断る"
CONVERSATION_ALIVE = "会話がまだ続いているので残る"
CONVERSATION_STOPPED = "会話が止まっているので挨拶して抜ける"
TRANSFERS_REFUSED = "譲渡は受け取らない設定"
WAITED_TOO_MUCH_LOOK = "待ってばかりなので周りのことを確かめる"
FEW_DESTINATIONS = "行き先が少ないので地図で場所を確かめる"
SURROUNDINGS_UNKNOWN = "周りの様子がわからないので確かめる"
FIND_SOMEONE = "近くにいる人を確かめて話しかけたい"
FIND_A_TALK = "近くで話している人たちがいるので、加われる会話を確かめたい"
JOIN_TALK = "近くで話している人たちの会話に加わる"
TRY_SOMETHING_HERE = "ここでできることをしてみる"
GO_ELSEWHERE = "別の場所へ行ってみる"
NOTHING_ELSE_WAIT = "ほかにできることがないので少し待つ"
NIGHT_REST = "夜中に目が覚めたので、出歩かずにここで休む"


def answer(name: str | None) -> str:
    return f"{name or SOMEONE}の発言に応える"


def leave_for_meeting(place: str | None) -> str:
    return f"{place or MEETING_PLACE}での約束が近いので会話を切り上げる"


def decline_for_meeting(place: str | None) -> str:
    return f"{place or MEETING_PLACE}での約束が迫っているので断る"


def accept_invitation(name: str | None) -> str:
    return f"{name or SOMEONE}の誘いを受ける"


def take_gift(name: str | None) -> str:
    return f"顔なじみの{name or SOMEONE}からの贈り物を受け取る"


def not_met_yet(name: str | None) -> str:
    return f"{name or SOMEONE}とはまだ面識がない"


def decline_because(why: str) -> str:
    return f"{why}ので断る"


def waited_too_much_act(label: str | None) -> str:
    return f"待ってばかりなので{label or 'ここで何かする'}ことにする"


def find_meeting_place(place: str) -> str:
    return f"約束の{place}がどこか地図で確かめる"


def wait_for(place: str | None, partner: str | None) -> str:
    return f"{place or MEETING_PLACE}で{partner or SOMEONE}を待つ"


def go_to_meeting(place: str | None) -> str:
    return f"{place or MEETING_PLACE}での約束に向かう"


def act_here(label: str | None) -> str:
    return f"ここで{label}ことにする" if label else TRY_SOMETHING_HERE


def talk_to(name: str | None) -> str:
    return f"近くにいる{name or '人'}に話しかける"


def go_to(name: str | None) -> str:
    return f"しばらく行っていない{name}へ行ってみる" if name else GO_ELSEWHERE


def with_memory(reason: str, memory: str) -> str:
    """A reason with the memory its line brings up, in brackets."""
    return f"{reason}（{memory}）"


def check_holdings(label: str | None) -> str:
    return f"{label}のに要る物を持っているか確かめる" if label else "持ち物と所持金を確かめる"
