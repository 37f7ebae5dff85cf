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
NO_PLACE = "場所なし"
TAKEN_BACK = "（取り消し）"


def title(day_iso: str) -> str:
    return f"{day_iso} の一日"


def summary(*, notifications: int, commands: int, places: int, conversations: int, promises: int, zone: str) -> str:
    return (f"通知 {notifications} 件・コマンド {commands} 件・場所 {places} か所・"
            f"会話 {conversations} 件・約束 {promises} 件（{zone}）")


def unplaced(names: str) -> str:
    return f"地図に置けない場所: {names}"
