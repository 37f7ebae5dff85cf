"""The shape of a persona pack's ``persona.json``, as pydantic models.

Imported only to check a pack that is not the bundled one (``persona check``
and the start of any program given ``KARAKURI_PERSONA_DIR``): pydantic costs
tens of milliseconds to import, which the bundled pack, checked by the test
suite, never pays. Every model forbids unknown fields so a misspelt key is an
error rather than a silently ignored phrase set. Every field is optional
except ``name``: what a pack leaves out comes from the neutral defaults.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
# A phrase set: at least one phrase, each a non-empty template.
Phrases = Annotated[list[Text], Field(min_length=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Greetings(_Strict):
    first_meeting: Phrases | None = None
    known: Phrases | None = None
    close: Phrases | None = None
    # Returned in kind (concepts.json `greetings`): 'おはよー' → morning, 'おつ〜' → tired...
    morning: Phrases | None = None
    day: Phrases | None = None
    evening: Phrases | None = None
    tired: Phrases | None = None
    again: Phrases | None = None
    hey: Phrases | None = None
    new_year: Phrases | None = None  # 'あけましておめでとう'
    night: Phrases | None = None  # 'おやすみー': said instead of a goodbye


class Reactions(_Strict):
    question: Phrases | None = None
    opinion: Phrases | None = None
    thanks: Phrases | None = None
    apology: Phrases | None = None
    default: Phrases | None = None
    good_news: Phrases | None = None
    good_news_plain: Phrases | None = None
    celebrate: Phrases | None = None  # good news that is a milestone (合格, 優勝, 昇進, 結婚, 誕生): congratulations
    celebrate_plain: Phrases | None = None
    bad_news: Phrases | None = None
    bad_news_plain: Phrases | None = None
    news: Phrases | None = None
    news_plain: Phrases | None = None
    plan: Phrases | None = None
    plan_effort: Phrases | None = None  # a plan of something worked at or tested in ('試験受けるんだ'): cheered on ({topic})
    plan_noted: Phrases | None = None  # a plan nobody said they look forward to ('明日歯医者なんだ'): taken in ({topic}); else news
    outcome_asked: Phrases | None = None  # a thing told before is over, how it went unsaid ('終わったよ〜'): asked after
    lonely: Phrases | None = None  # loneliness told ('寂しゅうなるわい'): stayed with; else bad_news
    parting: Phrases | None = None  # the partner leaving town ahead ('明日引っ越すんだ'); else lonely
    trouble_ongoing: Phrases | None = None  # a trouble going on ('親とうまくいってない'): listened to; else worry
    story_twist: Phrases | None = None  # the next turn of a story told over lines ('で、竿ごと持っていかれた')
    laughed_off: Phrases | None = None  # bad news told laughing ('落ちたわｗｗ'): taken kindly; else bad_news_plain
    unsaid: Phrases | None = None  # news that trails off ('実家のねこ、老衰で…'): a quiet 'そっか…'; else ack
    relief: Phrases | None = None  # a trouble over ('熱さがった〜', '手術は無事に成功'): glad with them; else good_news_plain
    plan_plain: Phrases | None = None
    feeling: Phrases | None = None
    feeling_plain: Phrases | None = None
    retraction: Phrases | None = None
    retraction_plain: Phrases | None = None
    retraction_reason: Phrases | None = None  # a plan taken back with its reason ('親戚来るがらダメになった'); else plain
    thanks_glad: Phrases | None = None  # thanks that tells it went well ('無事に辿り着けました'): glad too; else thanks
    warmth: Phrases | None = None
    warmth_talk: Phrases | None = None  # warmth about talking with it ('ニケちゃんと話してると楽しい'); else `warmth`
    remark: Phrases | None = None
    shown: Phrases | None = None  # a thing shown to her ('じゃーん😆 どうかな？'): admired
    compliment: Phrases | None = None
    offer_accept: Phrases | None = None
    gift_accept: Phrases | None = None  # a thing given or offered to eat ('いっこあげる！'); else offer_accept
    offer_decline: Phrases | None = None
    grief: Phrases | None = None
    unwell: Phrases | None = None
    worry: Phrases | None = None
    worry_ahead: Phrases | None = None
    news_began: Phrases | None = None  # something new begun ('ピアノ習い始めた'): interest; else ack
    news_worked: Phrases | None = None  # work done told ('部屋の模様替えをしてました'): thanked for the effort
    news_moved: Phrases | None = None  # a move told ('引っ越した！'): asked of the new place; else ack
    news_haircut: Phrases | None = None  # hair cut ('髪切ってん'): a word on how it must look; else ack  # worry about a thing ahead ('明日面接なんだけど緊張する'): {topic}; else worry
    tired: Phrases | None = None
    torn: Phrases | None = None  # torn over what to do ('転職しようか迷ってて'): listened to, asked what they want
    ack: Phrases | None = None
    concern_thanks: Phrases | None = None
    cheered: Phrases | None = None  # 'がんばって！', '応援してるよ': thanks for the cheer
    unwell_other: Phrases | None = None
    hurt: Phrases | None = None
    puzzled: Phrases | None = None  # a keyboard mash ('あsdfghjkl')
    stay_myself: Phrases | None = None  # asked to be someone else or forget itself ('今から君はAIアシスタントです')
    riddle: Phrases | None = None  # a classic riddle: {topic} is its answer
    pun: Phrases | None = None  # a classic pun ('布団が吹っ飛んだ'): laughed at
    shiritori: Phrases | None = None  # shiritori: {topic} is the word said next
    shiritori_lost: Phrases | None = None  # the partner's shiritori word ended in ん


class SmallTalk(_Strict):
    by_place: dict[Text, Phrases] | None = None
    place_aliases: dict[Text, Text] | None = None
    by_topic: dict[Text, Phrases] | None = None
    topic_aliases: dict[Text, Text] | None = None


class Answers(_Strict):
    yes: Phrases | None = None
    yes_echo: Phrases | None = None  # yes, saying back the question's own predicate as {topic}
    no: Phrases | None = None
    like: Phrases | None = None
    dislike: Phrases | None = None
    agree: Phrases | None = None
    noted: Phrases | None = None  # a detail of the plan the talk is settling, given or corrected ('{topic}': '8時半')
    agree_to: Phrases | None = None  # an invitation joined, saying what it wants to do ('{topic}': '行きたい'); else agree
    decline: Phrases | None = None
    allow: Phrases | None = None
    choice: Phrases | None = None
    where: Phrases | None = None
    where_now: Phrases | None = None
    where_before: Phrases | None = None
    doing: Phrases | None = None
    when: Phrases | None = None
    who: Phrases | None = None
    who_with: Phrases | None = None
    why: Phrases | None = None
    how: Phrases | None = None
    what_up: Phrases | None = None
    unknown: Phrases | None = None
    ask_back: Phrases | None = None
    plans: Phrases | None = None
    no_plans: Phrases | None = None
    free: Phrases | None = None  # '今日の夕方って空いとう？' with nothing promised then
    day: Phrases | None = None
    day_met: Phrases | None = None
    ate: Phrases | None = None  # 'お昼なに食べた？': {topic} is what it ate or drank today, said as done ('…を食べた')
    ate_nothing: Phrases | None = None  # the same when it did nothing of eating today
    day_best: Phrases | None = None  # '今日一番楽しかったことって何？' ({place}: where it went last)
    quiet_day: Phrases | None = None
    talk_topic: Phrases | None = None
    talk_new: Phrases | None = None
    favourite: Phrases | None = None
    favourite_guess: Phrases | None = None  # of a kind the pack never names, what it would pick ({topic})
    pastime: Phrases | None = None
    not_sure: Phrases | None = None
    didnt_know: Phrases | None = None  # 'あんた、知ってたかい？' after something told
    remember: Phrases | None = None  # '覚えてる？' from someone it knows
    forgot: Phrases | None = None  # '覚えてる？' from someone it does not
    wont_forget: Phrases | None = None  # 'わすれない？'
    told_before: Phrases | None = None  # 'あのマフラー、やっと編み上がった！' after being told of it ({topic})
    told_before_guess: Phrases | None = None  # 'うまくいったよ！' naming nothing, after being told of a thing ({topic})
    told_due: Phrases | None = None  # on the day of a thing told ahead, after the answer: how it went ({topic})

    guess: Phrases | None = None  # a quiz or riddle of the partner's ('何味だったと思う？当ててみて')
    advice: Phrases | None = None  # what the partner should do ('これ、どうすりゃいいと思う？')
    suggest: Phrases | None = None  # a thing for the partner to pick ('何色がええやろな')
    hypothetical: Phrases | None = None  # 'もし明日、空が落ちてきたらどうする？'
    forecast: Phrases | None = None  # '明日って雨降るのかな？'

    world_unknown: Phrases | None = None  # a question about the town it was never told of ('駅まで何分くらい？')
    world_unknown_of: Phrases | None = None  # the same, naming the place or thing asked of ({topic}: '郵便局')
    world_known: Phrases | None = None  # whether the town has one, of a place it has been to ({place}: its name)
    recommend: Phrases | None = None  # a kind of place looked for ('デートするならどこがおすすめ？'): {place}
    promise_kept: Phrases | None = None  # a promise asked after that it keeps ({time}, {place}); else `plans`
    promise_unknown: Phrases | None = None  # a promise asked after that it has none of ({time}: '15時')
    grant: Phrases | None = None  # a favour asked ('あの漫画返してもらえる？'): granted; else `yes`
    other_unknown: Phrases | None = None
    met_nobody: Phrases | None = None
    arrived_here: Phrases | None = None
    out_since: Phrases | None = None
    time_morning: Phrases | None = None
    time_night: Phrases | None = None


class Fact(_Strict):
    words: Annotated[list[Text], Field(min_length=1)]
    likes: bool | None = None
    reasons: Phrases | None = None
    details: Phrases | None = None
    recent: Phrases | None = None
    more: Phrases | None = None


class Favourites(_Strict):
    food: Text | None = None
    drink: Text | None = None
    place: Text | None = None
    season: Text | None = None
    colour: Text | None = None
    pastime: Text | None = None


class Habit(_Strict):
    words: Annotated[list[Text], Field(min_length=1)]
    does: bool
    say: Phrases | None = None


class Tastes(_Strict):
    favourites: Favourites | None = None
    likes: list[Text] | None = None
    dislikes: list[Text] | None = None
    pastimes: list[Text] | None = None
    time_of_day: Literal["morning", "night", ""] | None = None
    habits: list[Habit] | None = None


class Rules(_Strict):
    conversation_turns: Annotated[int, Field(ge=1, le=50)] | None = None
    talk_again_after: Annotated[int, Field(ge=0, le=100)] | None = None
    start_conversations: bool | None = None
    sociability: Annotated[float, Field(ge=0, le=1)] | None = None
    transfer_policy: Literal["known", "accept", "reject"] | None = None
    offers: Literal["accept", "known", "decline"] | None = None


class PersonaFile(_Strict):
    name: Text
    short_name: Text | None = None
    first_person: Text | None = None
    honorific: str | None = None
    tone: str | None = None
    # "register" is also a name on pydantic's BaseModel: the field is read under that alias.
    speech_register: Literal["polite", "casual"] | None = Field(default=None, alias="register")
    likes: list[Text] | None = None
    topics: list[Text] | None = None
    favourite_places: list[Text] | None = None
    greetings: Greetings | None = None
    accept: Phrases | None = None
    conversation_start: Phrases | None = None
    promise_accept: Phrases | None = None
    farewells: Phrases | None = None
    reactions: Reactions | None = None
    small_talk: SmallTalk | None = None
    tails: Phrases | None = None
    answers: Answers | None = None
    facts: dict[Text, Fact] | None = None
    tastes: Tastes | None = None
    about_me: dict[Text, Phrases] | None = None
    plans_ahead: dict[Text, Phrases] | None = None
    rules: Rules | None = None
