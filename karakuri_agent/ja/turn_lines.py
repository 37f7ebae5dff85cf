"""The short lines of a conversation turn's structure: answering an offer, asking a plan's time, nobody left.

What the agent says when a turn carries more than talk (a gift offered in
the conversation, a plan made without a time), and why it says it (the
reasons `log` and `--explain` show), and what the report says when a turn
cannot be taken. Each list holds several wordings, so one conversation
never needs the same line twice (the gate refuses a line said before).
"""

from __future__ import annotations

# Thanks for a gift taken: an item, or money.
THANKS_FOR_ITEM = (
    "わあ、ありがとう！大事にするね。",
    "いいの？ありがとう、うれしいな！",
    "ありがとう！ありがたく受け取るね。",
    "うれしい、ありがとう！大切にするね。",
)
THANKS_FOR_MONEY = (
    "えっ、いいの？ありがとう、助かるよ！",
    "ありがとう！大切に使わせてもらうね。",
    "ありがとう、ありがたく受け取るね。",
    "わあ、助かる！本当にありがとう。",
)

# A kind decline: thanks for the thought, no to the gift.
DECLINES = (
    "気持ちはうれしいけど、今回は遠慮しておくね。ありがとう。",
    "ありがとう。でも今回は受け取らないでおくね。",
    "うれしいけど、気持ちだけもらっておくね。ありがとう！",
    "ありがとう、でも大丈夫だよ。気持ちだけで十分うれしい。",
)

# Said after the answer when the turn also ends the talk.
PARTING = (
    "それじゃあ、またね！",
    "またお話ししようね。",
    "またね！",
)

# A plan proposed without a time the agent understood: ask for one, or say it will see.
ASK_TIME = (
    "いいね！何時ごろにする？",
    "楽しそう！何時にするか決めようか。",
    "うん、行きたい！時間が決まったら教えてね。",
    "いいね、行きたいな。何時ごろがいい？",
)
# A partner's line about something they told before (recall.linked): the agent shows it remembers.
TOLD_BEFORE = (
    "前に話してくれた{topic}のことだね！",
    "あっ、前に言ってた{topic}だね！",
    "{topic}って、前に聞いたあれだね！",
)

# A partner's news that names nothing ('うまくいったよ！') after they told of something (recall.referred):
# asked, not assumed.
TOLD_BEFORE_GUESS = (
    "もしかして、{topic}のこと？",
    "それって、前に言ってた{topic}のこと？",
)

# On the day of a thing the partner told was ahead of them, or just after, a line of theirs that names no other
# event ('ただいまー。足パンパンだわ' the day of a marathon told of): after the answer, how it went is asked.
TOLD_DUE = (
    "{topic}、どうだった？",
    "そういえば{topic}、どうだった？",
)

# A thing told before is over, and how it went is not said ('昨日話したやつ、終わったよ〜'): asked after.
OUTCOME_ASKED = (
    "おつかれさま！どうだった？",
    "そっか、終わったんだね。どうだった？",
)

# A meeting proposed near the time of one agreed with someone else, elsewhere: declined, the other named.
BUSY_THEN = (
    "ごめんね、{time}は{name}と{place}で約束してるんだ。また誘ってね！",
    "あっ、{time}は{place}で{name}と会う約束があって…ごめんね。また今度ぜひ！",
    "その時間は先約があるんだ、ごめんね。{name}と{place}で会うことになってて。また誘って！",
)
THAT_TIME = "その時間"


def clock_said(hour: int, minute: int) -> str:
    """A time of day as said in a line: '15時', '9時半', '13時45分'."""
    return f"{hour}時" + ("半" if minute == 30 else f"{minute}分" if minute else "")


ASK_TIME_AT = (
    "{place}、いいね！何時ごろにする？",
    "{place}なら行きたいな。何時にしようか？",
    "{place}、楽しそう！時間が決まったら教えてね。",
)

# Why (log, --explain).
def take_offer(name: str | None) -> str:
    return f"{name or '相手'}からの譲渡を受け取って返事をする"


def decline_offer(name: str | None, *, refused_always: bool) -> str:
    why = "譲渡は受け取らない設定なので" if refused_always else f"{name or '相手'}とはまだ面識がないので"
    return f"{why}{name or '相手'}からの譲渡を断って返事をする"


def ask_time(name: str | None) -> str:
    return f"{name or '相手'}の誘いには時間がないので、時間を尋ねる"


NOBODY_TO_NAME = "会話に残っている相手がいないので、次に話す人を指名できない"
NO_ONE_KNOWN = "会話に誰がいるのかわからないので、次に話す人を指名できない"
LEAVE_ALONE = "会話に残っている相手がいないので、挨拶して会話を抜ける"
WITHOUT_NEXT_SPEAKER = "会話に残っている相手がいないので、次に話す人を指名せずに締めくくる"
CLOSING_ALONE = "会話に残っている相手がいないので、お別れの言葉で締めくくる"

# The report's phrase for a turn that could not be taken (`{summary}。{why}追加操作なし。`).
NOBODY_LEFT_WHY = "会話の相手がもう誰も残っていないため、"
