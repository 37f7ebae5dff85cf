"""A partner's line understood: what it is, what it asks, how it feels. The one reading of a line.

Made once per line by reading/hearing.py (its words from the analyzer, its
feeling from the lexicon as data) and read by the voice, the rules, the
memory and the model's prompt alike: none of them reads the line again.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("question", "retraction", "thanks", "compliment", "warmth", "remark", "looks", "invitation", "offer",
         "farewell", "greeting", "apology", "news", "plan", "feeling", "statement", "concern", "cheered", "arrangement",
         "garbled", "play", "role", "shown")
# What a question asks about (Understanding.asks): the agent's plans, its day, the talk, a favourite, its pastimes,
# a side it takes ('家にいる派？'), someone else.
PLANS, DAY, TALK, FAVOURITE, PASTIME, SIDE, OTHER = "plans", "day", "talk", "favourite", "pastime", "side", "other"
# ... what it ate or drank today ('お昼なに食べた？').
MEAL = "meal"
# ... or the agent itself: its birthday, what it is good at, its childhood (Understanding.self_topic says which).
SELF = "self"
# ... or the town: what the agent may know of it ('この町の言い伝えって知ってる？', '郵便局ってどの辺にありますか？').
WORLD = "world"
# What of its view a line asks the agent for (Question.kind; concepts.json `asks_view`).
VIEWS = ("guess", "advice", "suggest", "hypothetical", "forecast")
# Torn over what to do ('転職しようか迷ってて'): no trouble told, but nothing to cheer either.
TORN = "torn"
# Feelings that are no news to cheer.
TROUBLE = frozenset({"worried", "unwell", "hurt", "grief", "sad", "tired", "disappointed", "lonely", "parting", TORN})
# What is felt about oneself, to be met with care: worry, feeling unwell, tiredness.
CARE = frozenset({"worried", "unwell", "hurt", "tired"})
# The kinds that tell something that happened or is felt.
TOLD = frozenset({"news", "plan", "feeling", "statement", "remark", "retraction"})


@dataclass(frozen=True)
class Question:
    """What a line asks: the kind of answer wanted, and where it was asked."""

    kind: str
    text: str  # the asking sentence, to find the subject in
    options: tuple[str, ...] = ()  # for a choice, the options as written
    detail: bool = False  # a yes/no that also wants the thing ("何か読んだ？")
    past: bool = False  # asks about something done ("おみくじ引いた？")
    predicate: str = ""  # a yes/no's own predicate, to say back ("こわくなかった？" → "こわかった"; '' none)
    free: bool = False  # asks whether the agent is free ('今日の夕方って空いとう？'): its promises answer


@dataclass(frozen=True)
class Understanding:
    """A partner's line, understood: its kind, its topic, how it feels, what a question asks about."""

    kind: str
    topic: str = ""  # the told or asked thing, a whole word ('' when the line names none)
    mood: str = ""  # 'good' or 'bad' for news and feelings ('' neither)
    question: Question | None = None
    asks: str = ""  # for a question: PLANS, DAY, TALK, FAVOURITE, PASTIME, SIDE, OTHER or '' (about the agent)
    ahead: str = ""  # for a PLANS question: the time ahead it names ('tomorrow', 'tonight'; concepts.json `ahead`)
    favourite: str = ""  # for a FAVOURITE question: the kind ('food', 'place', ... ja/listening.FAVOURITE_KINDS)
    phrase: bool = False  # the topic is a verb phrase ('手伝った'), not a noun
    clause: str = ""  # the told thing as it takes 'んだ': '市民マラソンに出る', '面接な' ('' when no topic)
    # How what is told went, by the lexicon (-1 bad, +1 good), a negation after a word turning it.
    polarity: int = 0
    emotions: frozenset[str] = frozenset()  # the feelings it names: 'worried', 'unwell', 'grief', 'glad'...
    self_topic: str = ""  # a question about the agent itself: 'birthday', 'good_at' (concepts.json self_topics)
    refers_back: bool = False  # 'それ', 'そこ', 'さっきの': it points at something said before
    acts: tuple[str, ...] = ()  # what each sentence does, in order: two in one line ('news', 'question')
    verbal: bool = False  # the clause says what happened ('パン屋ができた'), not only a noun ('面接な')
    # The noun a sentence ends on as what it says ('…三連敗や' → '三連敗な', '…カレーだった' → 'カレーだった'),
    # ready to take 'んだ'; '' when the line's noun is not its predicate ('鯛ば見たとよ').
    predicate: str = ""
    # Whom what is told is about: 'speaker' (the one talking), 'agent' (the one spoken to), 'third'
    # (someone else they name: 'お母さんが風邪で', 'うちの犬が').
    subject: str = "speaker"
    # Word play started (ja/lexicon/play.json): 'riddle' (topic: its answer), 'pun', 'shiritori' (topic: the word
    # said next), 'shiritori_lost' (the partner's word ended in ん); '' none.
    game: str = ""
    # A plan told as decided ('結婚することになりました', '出張が決まった'): news of the deciding, so good
    # news is wished well; one only intended or scheduled ('プロポーズしよう思てんねん') is looked forward to.
    decided: bool = False
    # For a question of the town: the kind of place it looks for ('静かに勉強できる場所ってある？' → '図書館';
    # concepts.json `place_for`), '' none.
    sought: str = ""
    # For an invitation: what the agent would do joining it, said as wanted ('行きたい', 'やってみたい'; '' unread).
    wanted: str = ""
    # For a retraction: what was said to the agent taken back with its reason ('…親戚来るがらダメになった').
    for_a_reason: bool = False
    # For an offer: help offered ('持とうか？', '案内するで'), thanked as help, not a thing given to take.
    helps: bool = False

    @property
    def troubled(self) -> bool:
        """Bad news, worry, illness, grief told: met with care, never with cheer (a question, an offer or
        an invitation that names such a word tells none: '宿題、持とうか')."""
        return self.kind in TOLD and (self.mood == "bad" or bool(self.emotions & TROUBLE))

    @property
    def ends_badly(self) -> bool:
        """Whether the last thing the line tells that went well or badly went badly, however the whole was
        scored ('離婚することになった。子どもは私が引き取る'): no cheer meets it; not where the whole was told as
        good, its last word an aside ('マラソン完走したとよ！足ガクガクやけど')."""
        told = [act for act in self.acts if act in ("bad_news", "good_news")]
        return self.kind in TOLD and self.mood != "good" and bool(told) and told[-1] == "bad_news"
