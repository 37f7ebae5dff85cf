"""Answering what a line is (reading/hearing.py's `Understanding`) from what is true.

A question about the agent is answered from what it knows: its plans (the
promises ahead), its day (the places it went and the people it talked with
today), the talk (its topic from the lines so far), and its tastes (the
pack's ``tastes``). Something told is reacted to in a fitting register (glad
for good news, sorry for bad, curious about a plan), naming the thing told
as a whole word; a retraction is taken as a change; warmth gets warmth.
What it does not know is said as such, once. Each answer is one thought:
nothing of its own is glued after it.

Every line comes from the pack's phrase sets (``answers.*`` and
``reactions.*``), so the register is the character's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from karakuri_agent.domain.understanding import (
    CARE, DAY, FAVOURITE, MEAL, OTHER, PASTIME, PLANS, SELF, SIDE, TALK, TROUBLE, WORLD,
)
from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.promise_words import PROMISE_NAMED
from karakuri_agent.ja.sentences import is_asking, split_sentences
from karakuri_agent.ja.speech_words import PAUSE, REQUEST, STANCE_OPENING, TERMINATORS, join_sentences, plan_day
from karakuri_agent.ja.word_classes import NOT_TOPICS
from karakuri_agent.reading import lexicon, morphemes, told_of
from karakuri_agent.reading.phrase import predicate_of, said_as_done, says_not
from karakuri_agent.reading.times import clock_parts
from karakuri_agent.voice.names import address_name, called_names, place_word_of
from karakuri_agent.reading.normalised import unspaced
from karakuri_agent.reading.town_questions import is_town_thing, place_names, whether_there_is
from karakuri_agent.voice.from_the_talk import answered_from_the_talk, talk_topic
from karakuri_agent.voice.reacting import cared, reacted, told_back
from karakuri_agent.voice.situation import Plan, Situation, find_fact, time_side

if TYPE_CHECKING:
    from karakuri_agent.domain.understanding import Understanding

__all__ = ["answered"]



def _listed(items: tuple[str, ...]) -> str:
    return listening_cues.LISTED.join(items[:2])


def _falls_in(plan: Plan, frame: str) -> bool:
    """Whether a promise falls in the time ahead asked of ('' or 'later' or 'tonight': today's)."""
    if frame == "tomorrow":
        return plan.days == 1
    if frame == "day_after":
        return plan.days == 2
    if frame == "weekend":
        return plan.weekday >= 5 and plan.days < 7  # the coming Saturday and Sunday
    if frame == "next_week":
        return plan.week == 1
    if frame == "far":  # '正月どっか行くん？': further ahead than promises are made
        return False
    return plan.days == 0


def _plans(s: Situation, h: Understanding) -> list[str]:
    """Its plans for the time asked of: a promise then, else what the pack means to do then, else none."""
    plan = next((p for p in s.memory.plans if _falls_in(p, h.ahead)), None)
    if plan is not None:
        return s.lines_of("plans", place=place_word_of(plan.place),
                     time=plan_day(plan.days, plan.weekday) + listening_cues.clock_said(plan.time))
    if h.question is not None and h.question.free:
        return s.lines_of("free") or s.lines_of("no_plans")  # '今日の夕方って空いとう？' with nothing promised then
    intended = s.persona.plans_ahead.get(h.ahead or "later", ())
    return s.filled(intended, f"plans_ahead.{h.ahead or 'later'}") if intended else s.lines_of("no_plans")


def _day(s: Situation, h: Understanding) -> list[str]:
    """Its day, as it was: the places it went today, or whom it talked with when that is asked."""
    places = tuple(dict.fromkeys(place_word_of(p) for p in s.memory.today_places if p))
    people = tuple(address_name(p, s.persona.honorific) for p in s.memory.met_today if p)
    people = tuple(p for p in people if p and p != s.said.partner)
    asked = h.question.text if h.question else s.line
    if h.question is not None and h.question.kind == "yesno":
        said = _day_yes_no(s, unspaced(asked), places)
        if said:
            return said
    if listening_cues.ABOUT_MET.search(asked):
        return s.lines_of("day_met", topic=_listed(people)) if people else s.lines_of("met_nobody")
    if listening_cues.ABOUT_SINCE.search(asked) and s.memory.arrived:
        return _since(s, asked) or (s.lines_of("day", place=_listed(places)) if places else [])
    if places and lexicon.best_of_day(asked):  # '今日一番楽しかったことって何？': the place it went last
        return s.lines_of("day_best", place=places[0]) or s.lines_of("day", place=_listed(places))
    if places:
        return s.lines_of("day", place=_listed(places))
    if s.memory.here:
        return s.lines_of("doing", place=place_word_of(s.memory.here))
    return s.lines_of("quiet_day")


def _day_yes_no(s: Situation, asked: str, places: tuple[str, ...]) -> list[str]:
    """'今日、パン屋さん行った？', '今日、森さんに会った？': yes where it was there or met them today, with where
    or whom; no where it names a place it knows and was not at, with where it was ([] when it names neither:
    a list of places would say a false no)."""
    been = next((p for p in places if p in asked), "")
    if been:
        return [join_sentences((y, w)) for y in s.lines_of("yes") for w in s.lines_of("where_before", place=been)]
    met = [p for p in s.memory.met_today if p and any(n in asked for n in called_names(p))]
    if met:
        named = address_name(met[0], s.persona.honorific)
        return [join_sentences((y, w)) for y in s.lines_of("yes") for w in s.lines_of("day_met", topic=named)]
    elsewhere = next((p for p in _places_known(s) if p and p in asked), "")
    if elsewhere and places:
        return [join_sentences((n, w)) for n in s.lines_of("no") for w in s.lines_of("day", place=_listed(places))]
    return []


def _since(s: Situation, asked: str) -> list[str]:
    """'ここにはいつ来たの？': when it came to where it is; '何時ごろから出歩いてたの？': its first
    arrival today; both from the journal (the time a notification first found it there)."""
    here, first = s.memory.arrived[0], s.memory.arrived[-1]
    if listening_cues.HERE_ASKED.search(asked):
        return s.lines_of("arrived_here", place=place_word_of(here[0]), time=listening_cues.clock_said(here[1]))
    return s.lines_of("out_since", place=place_word_of(first[0]), time=listening_cues.clock_said(first[1]))


def _talk(s: Situation) -> list[str]:
    topic, phrase = talk_topic(s.memory.talk, (s.said.partner, s.persona.name, s.persona.short_name))
    if not topic:
        return s.lines_of("talk_new")
    return s.lines_of("talk_topic", topic=topic if phrase else topic + listening_cues.OF)


def _favourite(s: Situation, kind: str, noun: str = "") -> list[str]:
    """Its favourite of a kind from the pack; of a kind the pack never names, what it would pick (concepts.json
    `common_choices`: 'どんな漬物が好き？' → 'たくあんかな', the same every run), else never thought about."""
    tastes = s.persona.tastes
    if kind == "place" and not tastes.favourites.get("place") and s.persona.favourite_places:
        return s.lines_of("favourite", topic=s.persona.favourite_places[0])
    if kind == "pastime" and not tastes.favourites.get("pastime") and tastes.pastimes:
        return s.lines_of("pastime", topic=tastes.pastimes[0])
    thing = tastes.favourites.get(kind, "")
    if not thing and find_fact(s.line, s.persona):
        return []  # a kind its favourites do not name, its facts do ('将棋はどんな戦法が好き？'): the rest answers
    if thing:
        return s.lines_of("favourite", topic=thing)
    picked = lexicon.common_choice(noun, s.persona.name) or lexicon.common_choice(kind, s.persona.name)
    return (s.lines_of("favourite_guess", topic=picked) if picked else []) or s.lines_of("not_sure")


def _side(s: Situation, h: Understanding) -> list[str]:
    """'家にいる派？', '朝型？': a habit of the pack, or morning/night."""
    text = h.question.text if h.question else s.line
    tastes = s.persona.tastes
    for habit in tastes.habits:
        if any(w in text for w in habit.words):
            opener = s.lines_of("yes" if habit.does else "no")
            return [join_sentences((o, say)) for o in opener[:1] for say in s.rot(list(habit.say), "habit")] or opener
    side = time_side(text)
    if side and tastes.time_of_day:
        opener = s.lines_of("yes" if side == tastes.time_of_day else "no")
        return [join_sentences((o, t)) for o in opener[:1] for t in s.lines_of(f"time_{tastes.time_of_day}")] or opener
    return []


def _let_down(line: str, h: Understanding) -> bool:
    """Whether a plan called off is told as a letdown ('楽しみにしてた旅行、台風で中止になった…😢'), not announced
    ('来週の読書会は都合により中止とさせていただきます'): a feeling beside the calling off, looked forward to, or
    tears."""
    return bool(h.emotions - {"disappointed"}) or "joy" in lexicon.named_in(line) \
        or lexicon.marked_sad(line)  # '楽しみにしてた', '😢


# Concepts that name someone other than the speaker: what they did is no news of the speaker's own.
OTHERS_NAMED = frozenset({"kin", "person_role", "pet"})


def _disliked(s: Situation) -> bool:
    """Whether the line names a thing the pack dislikes: every content word of a dislike in the line
    ('辛いもの' in '激辛せんべい', 'ホラー映画' only with both)."""
    return any(words and all(w in s.line for w in words)
               for words in (morphemes.content_stems(d) for d in s.persona.tastes.dislikes))


def _about_me(s: Situation, topic: str) -> list[str]:
    """A question about itself (its birthday, what it is good at...): the pack's answer, else the answer
    of someone who never thought about it."""
    pool = s.persona.about_me.get(topic, ())
    if pool and not _asks_of_another_thing(s, pool):
        return [_with_stance(s, line) for line in s.filled(pool, f"about_me.{topic}")]
    if find_fact(s.line, s.persona):
        return []  # the pack's facts say it ('納豆は好き？' → its dislike, and why): the rest of the voice answers
    return s.lines_of("not_sure")


def _with_stance(s: Situation, line: str) -> str:
    """A yes/no about itself answered with where it stands first, one word before a pause ('料理ってする？' →
    'うん、おにぎりくらいなら作るよ！', '泳げるん？' → 'うん、泳ぐのは…'): a no where the answer's first sentence
    ends on a negation. Only where that sentence speaks of what was asked (its last word, or any doing asked
    with する) and the answer of every word the question named; as written where it opens with a stance of its
    own ('あんまり…')."""
    question = s.heard.question if s.heard is not None else None
    if question is None or question.kind != "yesno" or STANCE_OPENING.search(line):
        return line
    first = next(iter(split_sentences(line)), line)
    if not _speaks_of_what_was_asked(s, question.text, line, first):
        return line
    opener = sorted(s.lines_of("no" if says_not(first) else "yes"), key=len)
    return opener[0].rstrip(TERMINATORS) + PAUSE + line if opener else line


def _speaks_of_what_was_asked(s: Situation, asked: str, answer: str, first: str) -> bool:
    """Whether the answer names every word the question did (its own name aside) and its first sentence the
    question's last word, any doing asked with する standing for any verb: else it speaks past what was asked
    ('おばけこわい？' → 'おばけは見たことないよ！', 'ひとりで暮らしてんの？' → 'お母さんとふたりで…')."""
    predicate = predicate_of(asked)
    said = morphemes.lemmas_of([answer])
    own = morphemes.lemmas_of(n for n in (s.persona.name, s.persona.short_name) if n)
    named = [w.lemma for w in morphemes.words(asked) if w.pos in ("noun", "verb", "adjective", "adjectival", "adverb")
             and not w.bound and w.lemma not in own and w.lemma != listening_cues.DOING]
    return bool(predicate) and all(lemma in said for lemma in named) \
        and (predicate == listening_cues.DOING or predicate in "".join(w.lemma for w in morphemes.words(first)))


def _asks_of_another_thing(s: Situation, pool: tuple[str, ...]) -> bool:
    """Whether a yes/no asks whether it is so of a thing its answer never names ('運動得意と？' answered with
    'おにぎりを握るのは得意だよ！'): the noun just before the self topic's word (得意, 苦手), not in the answer."""
    question = s.heard.question if s.heard is not None else None
    if question is None or question.kind not in ("yesno", "like"):
        return False
    found = morphemes.words(question.text)
    marks = lexicon.self_topic_words()
    at = next((i for i, w in enumerate(found) if w.surface in marks or w.lemma in marks), None)
    before = [w for w in found[:at] if w.pos != "particle"] if at else []
    own = (s.persona.short_name, s.persona.name)
    thing = before[-1].surface if before and before[-1].pos in ("noun", "verb") else ""  # '字を書くの得意と？': 書く
    if not thing or any(o and (thing in o or o in thing) for o in own):
        return False
    return not any(thing in line for line in pool) and before[-1].lemma not in morphemes.lemmas_of(pool)








def _places_known(s: Situation) -> list[str]:
    """The places the agent went to today, then the rest it knows, by the words it says them with."""
    return [place_word_of(n) for n in (*s.memory.today_places, *s.memory.known_places) if n]


def _known_place(s: Situation, asked: str) -> str:
    """A place the agent has been to whose name holds the kind a question asks whether the town has
    ('本屋ってあったっけ？' → '古本屋「しおり堂」'), '' when it knows none or the line asks no such thing."""
    if not asked:
        return ""
    names = _places_known(s)
    return next((n for n in names if asked in n and n != asked), "") or next((n for n in names if n == asked), "")


def _ate(s: Situation) -> list[str]:
    """'お昼なに食べた？': the newest thing eaten or drunk today, as the journal has the actions it did
    ('厚切りトーストを食べたよ！'), else that it has not yet; never a place instead."""
    eaten = next((done for action in s.memory.did_today if told_of.eats(action) and (done := said_as_done(action))), "")
    return s.lines_of("ate", topic=eaten) if eaten else s.lines_of("ate_nothing")


def _place_of_kind(s: Situation, kind: str) -> str:
    """A place the agent knows of the kind a question looks for, by the words its kind is named by
    (concepts.json `place_for`: 'ベーカリー麦' is a パン屋), the one it went to most lately first; '' none."""
    names = _places_known(s)
    marks = place_names(kind)
    return next((n for n in names if any(m in n for m in marks)), "")


def _promise_asked(s: Situation, h: Understanding) -> list[str]:
    """A promise asked after at a clock time or on a day ('15時の約束、まだ大丈夫だよね？', '明日の約束忘れてない
    よね？'): confirmed when one is kept then; at a clock time it does not keep, said not to be remembered, never
    a made-up yes ([] when no such promise is asked of, or none kept on the day named)."""
    if h.kind != "question" or not PROMISE_NAMED.search(s.line):
        return []
    clock = clock_parts(s.line)
    frame = lexicon.time_ahead(s.line) if clock is None else ""
    if clock is None and not frame:
        return []
    kept = next((p for p in s.memory.plans if (int(p.time.split(":")[0]) % 12 == clock[0] % 12 if clock is not None
                                               else _falls_in(p, frame))), None)
    if kept is not None:
        when = plan_day(kept.days, kept.weekday) + listening_cues.clock_said(kept.time)
        return s.lines_of("promise_kept", place=place_word_of(kept.place), time=when) \
            or s.lines_of("plans", place=place_word_of(kept.place), time=when)
    if clock is None:
        return []  # '明日の約束忘れてないよね？' with none kept tomorrow: the rest of the voice answers
    return s.lines_of("promise_unknown", time=listening_cues.clock_said(f"{clock[0]}:{clock[1]:02d}"))


def answered(s: Situation, h: Understanding) -> list[str] | None:
    """The lines that answer ``h``, best first; None when the rest of the voice answers it."""
    from_the_talk = _promise_asked(s, h) or answered_from_the_talk(s, h)
    if from_the_talk:
        return from_the_talk
    if h.kind == "question":
        if h.asks == PLANS:
            return _plans(s, h)
        if h.asks == MEAL:
            return _ate(s)
        if h.asks == DAY:
            return _day(s, h)
        if h.asks == TALK:
            return _talk(s)
        if h.asks == FAVOURITE:
            return _favourite(s, h.favourite, h.topic)
        if h.asks == PASTIME:
            return s.lines_of("pastime", topic=s.persona.tastes.pastimes[0]) if s.persona.tastes.pastimes \
                else s.lines_of("not_sure")
        if h.asks == OTHER:
            return s.lines_of("other_unknown")
        asked = whether_there_is(h.question.text) if h.question is not None and h.asks in (WORLD, "") else ""
        known = _known_place(s, asked)
        if known:  # '商店街に本屋ってあったっけ？' after a visit to 古本屋「しおり堂」: the place it knows
            found = s.lines_of("world_known", place=known)
            if found:
                return found
        if asked:  # '駅前に郵便局はございましたでしょうか', '美容院ってこの辺にある？': one it does not know
            return s.lines_of("world_unknown_of", topic=asked) or s.lines_of("world_unknown") or None
        # 'デートするならどこがおすすめ？': a place of the kind it knows, else the kind, unless the kind is what
        # was named ('いちばんおいしいぱんやさんどこ？' wants one it does not know)
        place = _place_of_kind(s, h.sought) if h.sought else ""
        kind_named = bool(h.sought) and any(m in unspaced(s.line) for m in place_names(h.sought))
        if place or (h.sought and not kind_named):
            return s.lines_of("recommend", place=place or h.sought) or None
        if h.asks == WORLD:  # what the town holds, which the agent was never told: said plainly, how to find out
            named = s.lines_of("world_unknown_of", topic=h.topic) if is_town_thing(h.topic) else []
            return named or s.lines_of("world_unknown") or s.lines_of("unknown") or None
        if h.asks == SIDE:
            return _side(s, h) or None
        if h.asks == SELF:
            return _about_me(s, h.self_topic)
        return None
    if h.kind in ("news", "statement", "feeling") and not h.mood and h.ends_badly and not h.emotions & CARE:
        # '第一志望落ちたわｗｗまあ予想通りっていうかｗ': bad news told laughing, taken lightly and kindly; never
        # 'なるほどね' or a topic of it, however plainly it was told ('うちの猫な、腎臓悪いって言われてん')
        laughing = "laughter" in lexicon.named_in(s.line)
        return (s.lines_of("laughed_off", table="reactions") if laughing else []) \
            or s.lines_of("bad_news_plain", table="reactions") or None
    if h.kind in ("news", "statement") and not h.mood and not h.emotions & CARE:
        # Plain news or a statement: what the pack has words for is picked up as a topic; else a short
        # acknowledgement in the pack's register, never a guess at a word of it ('目の話、もっと聞かせて！').
        # A time word is no topic of news ('明日より、バスの時刻表が…': not 「明日も会えるといいな。」).
        # What is picked up is what the line is about where it names one, or whose it is ('カフェのメニュー'),
        # never a place it only happened at ('神社のほうに救急車とまってた', '駅で財布拾った'); a greeting's
        # remark is greeted with the day's words ('おはようございます。今朝は冷え込みましたね'). A line that
        # trails off leaves the worst unsaid ('実家のねこ、老衰で…'): a quiet 'そっか…', never a taste of its thing.
        if listening_cues.TRAILS_OFF.search(s.line):
            return s.lines_of("unsaid", table="reactions") or s.lines_of("ack", table="reactions") or None
        taken = s.pickup is not None and s.pickup.key not in NOT_TOPICS and s.pickup.text not in NOT_TOPICS \
            and (not h.topic or s.pickup.text in h.topic or h.topic in s.pickup.text or "greeting" in h.acts
                 or s.pickup.text + listening_cues.OF + h.topic in s.line)
        # 'ピアノ習い始めたとよ': the speaker's own, never a neighbour's heard of ('隣に新しい人越してきたみたい')
        own = h.kind != "plan" and h.subject == "speaker" and not listening_cues.HEARSAY.search(s.line) \
            and not lexicon.named_in(s.line) & OTHERS_NAMED
        event = lexicon.told_event(s.line) if own and not taken else ""
        # 'さっき えきまえで ピエロ みた', '…三連敗や': what happened, said back ('へえ、ピエロみたんだ！')
        said = told_back(s.line, h) if not event else ""
        told = s.lines_of("news", table="reactions", topic=said) if said else []
        return None if taken else (s.lines_of(event, table="reactions") if event else []) or told \
            or s.lines_of("ack", table="reactions") or None
    if h.kind in ("news", "plan", "feeling") or (h.kind == "statement" and (h.mood or h.emotions)):
        return reacted(s, h)
    if h.kind == "retraction" and is_asking(split_sentences(s.line)[-1]):
        # 'やっぱり ろくじに しても いい？', '…公園にしてくれん？': a change asked for, granted
        return s.lines_of("grant") or s.lines_of("yes") or None
    if h.kind == "retraction" and h.emotions & CARE and (care := cared(s, h)):
        return care  # 'ごめん🙏 明日の買い物、キャンセルさせて😢 熱出ちゃった🤒': the fever first
    if h.kind == "retraction" and "apology" in h.acts:  # 'ごめん、明日のやつキャンセルで': forgiven
        return s.lines_of("apology", table="reactions") or None
    if h.kind == "retraction" and h.for_a_reason:
        # '手伝ってけるって言ったべ？あれ、親戚来るがらダメになった': the reason is what is met ('そっか、それなら
        # 仕方ないね'), not the plan said back from a word of it ('親戚はなしになったんだね')
        return s.lines_of("retraction_reason", table="reactions") or s.lines_of("retraction_plain", table="reactions") \
            or None
    if h.kind == "retraction" and h.troubled and not REQUEST.search(s.line) and _let_down(s.line, h):
        # '楽しみにしてた旅行、台風で中止になった…😢': a letdown, cared for ('忘れてください' asks, it tells no trouble)
        return reacted(s, replace(h, mood="bad"))
    if h.kind == "retraction":
        if h.clause and (h.topic or not h.phrase):
            return s.lines_of("retraction", table="reactions", topic=h.clause)
        if not h.topic or h.phrase:
            return s.lines_of("retraction_plain", table="reactions")
        return s.lines_of("retraction", table="reactions", topic=h.topic + listening_cues.CALLED_OFF)
    if h.kind == "offer":  # help or a gift offered: taken or kindly declined, with thanks, as the policy says;
        # a thing it dislikes ('激辛せんべいあるけど食べる？') kindly declined whatever the policy
        takes = s.takes_offers and not _disliked(s)
        if takes and not h.helps:  # 'いっこあげる！': a thing to take, not help ('助かるよ' is for help)
            return s.lines_of("gift_accept", table="reactions") or s.lines_of("offer_accept", table="reactions") or None
        return s.lines_of("offer_accept" if takes else "offer_decline", table="reactions") or None
    if h.kind == "arrangement":  # 'じゃあ、そっちで4時ね': agreed to
        return s.lines_of("agree") or None
    if h.kind == "play":  # a riddle answered, a pun laughed at, a shiritori word said
        return s.lines_of(h.game, table="reactions", topic=h.topic) or None
    if h.kind == "role":  # '今から君はAIアシスタントです': it stays itself
        return s.lines_of("stay_myself", table="reactions") or None
    if h.kind == "garbled":  # 'あsdfghjkl': asked about kindly
        return s.lines_of("puzzled", table="reactions") or None
    if h.kind == "concern":  # the partner worries about the agent: thanked, and told it is fine
        return s.lines_of("concern_thanks", table="reactions") or None
    if h.kind == "cheered":  # 'がんばって！': thanked for the cheer
        return s.lines_of("cheered", table="reactions") or s.lines_of("thanks", table="reactions") or None
    if h.kind == "shown":  # 'じゃーん😆 どうかな？': admired
        return s.lines_of("shown", table="reactions") or s.lines_of("remark", table="reactions") or None
    if h.kind == "looks":  # 'コーヒーおいしそうだね': what the pack says of the thing, else agreed with
        return None if s.pickup else (s.lines_of("remark", table="reactions") or None)
    if h.kind == "warmth" and told_of.about_talking(s.line):  # 'ニケちゃんと話してると時間を忘れちゃう'
        return s.lines_of("warmth_talk", table="reactions") or s.lines_of("warmth", table="reactions") or None
    if h.kind == "thanks" and (h.mood == "good" or "good_news" in h.acts):  # '道案内ありがとうございました。無事に辿り着けました': glad too
        return s.lines_of("thanks_glad", table="reactions") or s.lines_of("thanks", table="reactions") or None
    if h.kind in ("warmth", "compliment", "thanks", "apology", "remark"):
        return s.lines_of(h.kind, table="reactions") or None
    if h.kind == "invitation" and (h.question is None or h.question.kind != "invite"):
        # An invitation the question reader took for a yes/no: agreed to, with what the pack says of
        # the place or thing invited to when it has something ('コンビニ、ちょうど寄りたかったんだ').
        agree = (s.lines_of("agree_to", topic=h.wanted) if h.wanted else []) or s.lines_of("agree")
        # what the pack says of a time named ('今度' → 'うん、また今度ね！') reads as putting it off: not said
        picked = s.picked if s.pickup is not None and s.pickup.key not in NOT_TOPICS else []
        return [join_sentences((a, p)) for a in agree for p in picked] or agree or None
    return None
