"""How the server writes a notification's text in Japanese: the headers, the lines of speech, the lists of people and places."""

from __future__ import annotations

import re

from karakuri_agent.patterns import lazy

# A name as the server writes it: anything on one line but the brackets and
# separators that delimit it. Kept lazy so the sentence after it anchors it.
NAME = r"[^\s「」\n][^「」\n]*?"

# `名前: 「` opens a conversation line (the colon may be full-width).
SPEAKER_LINE = lazy(rf"^(?P<name>{NAME})\s*[:：][ \t\u3000]*「")

# Server sentences that introduce the bare `「…」` line after them as that
# agent's line: a talk request, and the notices of someone joining or leaving
# a conversation (their first or last line), which the server marks with 🔔.
# The Discord body variant puts the quote on the same line.
INTRO_LINE = lazy(
    rf"^(?:🔔[ \t\u3000]*)?(?P<name>{NAME}) (?:が話しかけています|が会話から(?:離れ|退出し)ました|が会話に参加しました)。"
    r"[ \t\u3000]*(?P<quote>「)?"
)

BRACKET = lazy(r"[「」]")

# Labels of the server's own `ラベル: 値` lines: never a speaker, even when the
# value starts with 「 (for example a building named 「森の家」).
STRUCTURAL_LABELS = frozenset(
    {
        "参加者", "選択肢", "現在時刻", "天気", "現在地", "近くのノード",
        "近くのエージェント", "近くのNPC", "近くの建物", "近くの会話",
        "サーバーイベント", "所持金", "所持品", "transfer_id", "応答期限",
        "notification_id", "server_event_id",
    }
)

# `名前 (id: 123)`, as in `参加者: A (id: 1)、B (id: 2)`.
# Names are bounded ({0,63}): an unbounded lazy name made finditer quadratic on one long line.
ID_ENTRY = lazy(
    r"(?P<name>[^\s、,，:：「」()（）\[\]/][^、,，:：「」()（）\[\]/\n]{0,63}?)\s{0,8}[(（]id:\s*(?P<id>[\w-]{1,64})[)）]"
)

NEXT_SPEAKER = lazy(rf"^次は (?P<name>{NAME}) の番です。")

# A closing 」 that a server next-speaker line and a new 「 follow is not the server's: its own
# `次は … の番です。` line is the last of a conversation line, never followed by bare speech
# (issue 28: a line that itself holds `」\n次は 〇〇 の番です。\n「`).
QUOTED_TURN_LINE = lazy(r"[ \t\u3000]*\n次は [^\n]* の番です。[ \t\u3000]*\n+[ \t\u3000]*「")

# The server's `参加者: A (id: 1)、B (id: 2)` line: who is in the conversation now.
PARTICIPANTS_LINE = lazy(r"^参加者[:：]")

# Server sentences saying someone is no longer in the conversation (left it, or left the world),
# and the one saying someone came (back) in. Both formats: 離れました (today's) and 退出しました.
DEPARTURES = tuple(
    lazy(rf"^(?:🔔[ \t\u3000]*)?(?P<name>{NAME}) {tail}")
    for tail in (r"が会話から(?:離れ|退出し)ました。", r"が世界からログアウトし")
)
ARRIVAL = lazy(rf"^(?:🔔[ \t\u3000]*)?(?P<name>{NAME}) が会話に参加しました。")

# Server sentences that start with an agent's name.
NAME_SENTENCES = tuple(
    lazy(rf"^(?P<name>{NAME}) {tail}")
    for tail in (
        r"が話しかけています。",
        r"が会話(?:から離れ|から退出し|に参加し)ました。",
        r"から \S.*? の譲渡提案が届(?:きました|いています)",
        r"に \S.*? の譲渡を提案しました。",
        r"が \S.*?を受け取りました。",
        r"から \S.*? を受け取りました。",
        r"からの譲渡",
        r"への譲渡",
        r"との(?:会話開始|譲渡)",
        r"が世界からログアウトし",
        r"が会話を(?:拒否|受諾)しました。",
        r"が応答しませんでした。",
    )
) + (NEXT_SPEAKER,)

CHOICES_HEADER = lazy(r"^選択肢[:：]\s*$")

CHOICE_LINE = lazy(r"^-\s*(?P<command>[A-Za-z_][\w-]{0,63})\s*[:：]")

NODE = r"\d{1,4}-\d{1,4}"

NODE_WITH_LABEL = lazy(rf"(?<![\d-])(?P<node>{NODE})(?![\d-])[ \t]?[(（](?P<name>[^()（）\n]+)[)）]")

BUILDING = lazy(
    rf"(?P<name>[^\s/:：,，、\[\]][^/\n:：,，、\[\]]{{0,63}}?)\s{{0,8}}\[(?P<node>{NODE})\]"
)

# A building of the map (`get_map`): the engine's `  神社 [入口: 3-3, 3-4] - 赤い鳥居が立つ…` and the
# offline town's `- 神社: 入口 3-3, 3-4 / 内部 …`; each entrance is a place to go, named `神社 入口`.
MAP_BUILDING = lazy(
    rf"^\s*(?:-\s*)?(?P<name>[^\[\]\n@:：]{{1,64}}?)\s*(?:\[入口[:：]\s*|[:：]\s*入口\s+)"
    rf"(?P<nodes>{NODE}(?:\s*[,、，]\s*{NODE})*)"
)
ENTRANCE = "入口"
# A conversation one could join: a line of `get_active_conversations`' answer (`- conv-1: 名前 (123)、…`)
# or a join choice that names its id (`- conversation_join: … (conversation_id: conv-1)`).
ACTIVE_TALK = lazy(r"^\s*-\s*(?P<id>[A-Za-z0-9][A-Za-z0-9_.:-]{0,63})\s*[:：]\s*[^\n(]+\(\d{3,}\)")
JOIN_CHOICE = lazy(r"conversation_join[:：][^\n]*\(conversation_id[:：]\s*(?P<id>[A-Za-z0-9][A-Za-z0-9_.:-]{0,63})\)")
PLACEHOLDER_ID = "ID"

CURRENT_NODE = lazy(rf"^現在地[:：]\s*(?P<node>{NODE})(?![\d-])(?:\s*[(（](?P<name>[^()（）\n]+)[)）])?")

CLOCK = lazy(
    r"^現在時刻[:：]\s*(?P<y>\d{4})-(?P<mo>\d{1,2})-(?P<d>\d{1,2})[ T](?P<h>\d{1,2}):(?P<mi>\d{2})"
    r"(?:\s*\((?P<tz>[A-Za-z_]{1,32}(?:/[A-Za-z_+-]{1,32}){0,2})\))?"
)

NEARBY_AGENTS = lazy(r"^近くのエージェント[:：]\s*(?P<count>\d{1,6})\s*人")

# `天気: くもり 18℃`: the sky (the `weather` fact) and the temperature, which the fact leaves out.
WEATHER = lazy(r"^天気[:：][ \t\u3000]*(?P<sky>[^\s\d℃][^\s℃]{0,15}?)(?:[ \t\u3000]*-?\d{1,3}(?:\.\d+)?[ \t]*℃)?[ \t\u3000]*$")

# Transfers. The summary is `item×N`, `12,000円` or `(空)`. Each tail holds its own separator:
# the server writes `名前 から …` but also `名前が受取を拒否しました。`.
SUMMARY = r"(?P<summary>\S.*?)"

TRANSFER_PATTERNS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (lazy(rf"^(?P<name>{NAME}){tail}"), direction, status)
    for tail, direction, status in (
        (rf" から {SUMMARY} の譲渡提案が届きました。", "in", "offered"),
        # Inside a conversation the offer is answered in the next turn (`transfer_response`).
        (rf" から {SUMMARY} の譲渡提案が届いています", "in", "offered_in_conversation"),
        (rf" に {SUMMARY} の譲渡を提案しました。", "out", "offered"),
        (rf" から {SUMMARY} を受け取りました。", "in", "accepted"),
        (rf" が {SUMMARY} ?の譲渡を受け取りました。", "out", "accepted"),
        (rf" が {SUMMARY} ?を受け取りました。", "out", "accepted"),
        (r" からの譲渡を処理できませんでした。(?P<reason>.*)", "in", "rejected"),
        # What became of the agent's own offer inside a conversation, told in the next turn.
        (r" ?が(?P<reason>受取を拒否)しました。", "out", "rejected"),
        (rf" が応答しなかったため {SUMMARY} の譲渡は(?P<reason>自動キャンセル)されました。", "out", "cancelled"),
        (rf" の(?P<reason>インベントリが満杯)のため {SUMMARY} の譲渡は受け取れませんでした。", "out", "rejected"),
        (r" への譲渡は成立しませんでした。(?P<reason>.*)", "out", "rejected"),
        (r" からの譲渡は取り消されました。(?P<reason>.*)", "in", "cancelled"),
        (r" への譲渡は取り消されました。(?P<reason>.*)", "out", "cancelled"),
        (r" からの譲渡は応答期限切れになりました。(?P<reason>.*)", "in", "expired"),
        (r" への譲渡は応答期限切れになりました。(?P<reason>.*)", "out", "expired"),
    )
)

MONEY_SUMMARY = lazy(r"^(?P<amount>\d{1,3}(?:,\d{3}){0,5}|\d{1,15})円$")

# Reason sentences (both server wordings: サーバーアナウンス / サーバーイベント).
REASON_CODES: tuple[tuple[str, str], ...] = (
    ("インベントリが満杯", "inventory_full"),
    ("受け取り側が拒否", "rejected_by_receiver"),
    ("受取を拒否", "rejected_by_receiver"),
    ("自動キャンセル", "unanswered_speak"),
    ("発話で応答しなかった", "unanswered_speak"),
    ("サーバーアナウンス", "server_announcement"),
    ("サーバーイベント", "server_event"),
    ("送信側がログアウト", "sender_logged_out"),
    ("受信側がログアウト", "receiver_logged_out"),
    ("会話終了処理", "conversation_closing"),
    ("不応答", "participant_inactive"),
    ("エラー", "error"),
)

ACTION_OPTION = lazy(
    r"^-\s*action\s*[:：]\s*(?P<name>[^(（\n]+?)\s*[(（]action_id:\s*(?P<id>[\w-]{1,64})(?P<rest>[^)）\n]*)"
    r"(?:[)）](?:\s*-\s*(?P<source>[^\n]{1,64}?))?)?\s*$"
)

# The details of an offered action, each after a comma: `3600秒`, `30〜480分`, `450円`, `報酬: 1,200円`,
# `必要: 映画チケット×1, パン×2` (the items it needs, its last detail).
# A comma inside an amount (`1,200円`) separates nothing.
DETAIL_SEPARATOR = lazy(r"\s*(?:[、，]|,(?!\d{3}(?!\d)))\s*")
REWARD = lazy(r"^報酬\s*[:：]")
REQUIRED = lazy(r"^必要\s*[:：]\s*")
REQUIRED_ITEM = lazy(r"^(?P<item>[^×x\s][^×]{0,63}?)\s*[×x]\s*(?P<qty>\d{1,6})$")
MINUTES_RANGE = lazy(r"(?P<low>\d{1,5})\s*[〜~～-]\s*(?P<high>\d{1,5})\s*分")

# The places and people lists of a perception: `近くのNPC: おまわりさん@8-13 / 猫@12-9`, and the map's
# `  猫 @ 12-9 - 説明` (an NPC stands on its node: it is someone to meet, never a place to go to).
NPC_LIST = lazy(r"^近くのNPC[:：]\s*(?P<list>.+)$")
NPC_ENTRY = lazy(rf"(?P<name>[^/@\n]{{1,64}}?)\s*@\s*(?P<node>{NODE})(?![\d-])")
MAP_NPC_HEADER = lazy(r"^NPC[:：]\s*$")
MAP_NPC_LINE = lazy(rf"^\s+(?P<name>[^@\n]{{1,64}}?)\s*@\s*(?P<node>{NODE})(?![\d-])")

# Amounts and lengths are bounded as MONEY_LINE is: a number of thousands of digits is no amount
# (Python will not even read one past 4300) and no length to add to a time; it is not read at all.
YEN = lazy(r"(?<![\d,])(?P<yen>\d{1,3}(?:,\d{3}){0,5}|\d{1,15})円")

SPAN = lazy(r"(?<![\d,])(?P<n>\d{1,6})\s*(?P<unit>秒|分)(?!後)")

# The unit of an action's duration that is not minutes.
SECONDS = "秒"

# The world would not start an action it had accepted (money or items short):
# `「映画を観る」を実行できませんでした。必要なアイテムが足りません（必要: 映画チケット×1）。`
ACTION_REJECTED = lazy(r"^「(?P<name>[^」\n]{1,64})」を実行できませんでした。")

# What the agent holds, as the perception and the status answer write it:
# `所持金: 10,000円`; `所持品: 5 個` / `所持品: なし` / `所持品:` with `- 映画チケット (movie-ticket) ×1` lines under it;
# the older perception's `アイテム: パン (bread) ×2, 花束 (flower-bouquet) ×1` / `アイテム: なし`.
MONEY_LINE = lazy(r"^所持金[:：]\s*(?P<yen>\d{1,3}(?:,\d{3}){0,5}|\d{1,15})\s*円")
ITEMS_LINE = lazy(r"^(?:所持品|アイテム)[:：]\s*(?P<rest>.*)$")
NOTHING_HELD = "なし"
ITEM_COUNT = lazy(r"^(?P<n>\d{1,6})\s*個$")
HELD_ITEM = lazy(
    r"(?P<name>[^\s,、()（）\n-][^,、()（）\n]{0,63}?)\s*[(（](?P<id>[\w-]{1,64})[)）]\s*[×x]\s*(?P<qty>\d{1,6})"
)
HELD_LINE = lazy(r"^-\s*(?P<entry>.+)$")
# What a rejected action says was short: `必要なアイテムが足りません（必要: 映画チケット×1）`, `所持金が足りません（…）`.
ITEMS_SHORT = lazy(r"必要なアイテムが足りません[（(]必要[:：]\s*(?P<needs>[^）)\n]+)[）)]")

# Whom the agent may speak to: the nearby-agents answer's `conversation_candidates:` list
# (`- 桜草メイ (1474403124906295517) - idle`), and the older per-person choice line
# `- conversation_start: 桜草メイ に話しかける (target_agent_id: 1474403124906295517, message: …)`.
CANDIDATES_HEADER = lazy(r"^conversation_candidates[:：]\s*$")
CANDIDATE_LINE = lazy(r"^-\s*(?P<name>[^()（）\n]{1,64}?)\s*[(（](?P<id>[\w-]{1,64})[)）]\s*(?:-.*)?$")
START_CHOICE = lazy(
    r"^-\s*conversation_start\s*[:：]\s*(?P<name>[^()（）\n]{1,64}?) に話しかける\s*[(（]target_agent_id:\s*(?P<id>[\w-]{1,64})\s*[,，)]"
)
