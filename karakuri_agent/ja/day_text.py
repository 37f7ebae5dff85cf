"""The day view's Japanese: headings, labels and the words of its summary."""

from __future__ import annotations

KINDS = {"place": "到着", "talk": "会話", "promise": "約束", "gift": "譲渡", "failure": "失敗"}

# Each section's heading, by its id in the page.
HEADINGS = {
    "timeline": "タイムライン", "map": "歩いた道", "conversations": "会話", "promises": "約束", "gifts": "譲渡",
    "commands": "コマンド", "failures": "失敗", "rules": "発火したルール", "variables": "変数", "learned": "聞いたこと",
}
NOTHING = "なし"
NO_RECORDS = "この日の記録はありません。"
NO_PLACES = "場所の記録はありません。"
MAP_LABEL = "知っている場所と歩いた道"
SOMEONE = "誰か"
NO_TIME = "時刻なし"
NO_PLACE_SAID = "場所の言われていない所"
NO_PLACE = "場所なし"
TAKEN_BACK = "（取り消し）"


def title(day_iso: str) -> str:
    return f"{day_iso} の一日"


def summary(*, notifications: int, commands: int, places: int, conversations: int, promises: int, zone: str) -> str:
    return (f"通知 {notifications} 件・コマンド {commands} 件・場所 {places} か所・"
            f"会話 {conversations} 件・約束 {promises} 件（{zone}）")


def unplaced(names: str) -> str:
    return f"地図に置けない場所: {names}"


# A promise's status and a gift's direction, as the page and the text say them (the JSON keeps the codes).
STATUS = {"kept": "守った", "missed": "守れなかった", "pending": "まだ", "made": "これから", "cancelled": "取り消し"}
DIRECTION = {"received": "受け取った", "given": "渡した", "declined": "断った"}
A_GIFT = "贈り物"


def status(code: str) -> str:
    return STATUS.get(code, code)


def direction(code: str) -> str:
    return DIRECTION.get(code, code)


def gift(code: str, what: str, partner: str) -> str:
    """`桜草メイ から popcorn×1 を受け取った`, `Luna☆Bot からの 50,000円 を断った`."""
    thing = what or A_GIFT
    if code == "given":
        return f"{partner} に {thing} を渡した"
    if code == "declined":
        return f"{partner} からの {thing} を断った"
    return f"{partner} から {thing} を{direction(code)}"


def promise(status_code: str, partner: str, place: str, when: str, made: str, kept: str | None) -> str:
    """`守った    桜草メイ と 公民館 ホール で 04-18 13:30（13:00 に約束、13:20 に守った）`."""
    done = f"、{kept} に守った" if kept else ""
    return f"{status(status_code)}\u3000{partner} と {place} で {when}（{made} に約束{done}）"
