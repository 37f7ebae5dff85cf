"""How what a partner tells is met: news, a plan, a feeling, a trouble (the pack's `reactions`).

answering.py decides what a line asks for; a line that tells something is reacted to here: care by the
feeling it names, encouragement before a thing to undertake, congratulations, relief, joy, or plain
interest, and never cheer for trouble or for a thing ahead told badly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from karakuri_agent.domain.understanding import TORN
from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.word_classes import INTERROGATIVES, NOT_A_CLAUSE_START, TOLD_AS_DONE
from karakuri_agent.reading import lexicon, morphemes
from karakuri_agent.reading.normalised import unspaced
from karakuri_agent.reading.phrase import tells_past
from karakuri_agent.reading.told_facts import thing_told

if TYPE_CHECKING:
    from karakuri_agent.domain.understanding import Understanding
    from karakuri_agent.voice.situation import Situation

__all__ = ["cared", "encouraged", "reacted", "told_as_past"]

# The emotion of concepts.json's `effort` (an exam, a match, a shift): a plan of one is cheered on.
EFFORT = "determined"
EFFORT_CONCEPT = "effort"  # concepts.json: a thing one works at or is tested in (試験, 面接, 面談)
LEISURE = "leisure"  # concepts.json: an outing or a treat, looked forward to when a plan names one
# The emotion of concepts.json's `recovery` (治った, 熱が下がった, 無事に): a trouble over.
RELIEVED = "relieved"
# The emotion of concepts.json's `milestone` (passed, won, promoted, married, born): news to congratulate.
MILESTONE = "proud"
# The care a troubled line is met with, by the feeling it names, most serious first.
_CARE = (("grief", "grief"), ("hurt", "hurt"), ("unwell", "unwell"), (TORN, "torn"), ("worried", "worry"),
         ("tired", "tired"), ("parting", "parting"), ("parting", "lonely"), ("lonely", "lonely"))
# The feelings an undertaking ahead may come with and still be encouraged for ('面接、緊張する').
ENCOURAGED = frozenset({"worried", "determined", "torn"})


def reacted(s: Situation, h: Understanding) -> list[str]:
    """A reaction to news, a plan or a feeling: the thing told said back only when the line said what
    happened to it ('試験に受かったんだ！'); a bare noun is never the news ('金魚なんだ…'), so then the
    reaction is said plainly. Worry, feeling unwell, tiredness and grief get care of their own."""
    care = cared(s, h)
    if care:
        return care
    # a trouble still going on ('親と最近うまくいってないんだよね') or ahead ('会社、今月いっぱいで閉まること
    # になりまして') is listened to, not 'それは大変だったね'
    if h.mood == "bad" and (h.kind == "plan" or h.kind in ("news", "statement", "feeling") and not told_as_past(s.line)):
        ongoing = (encouraged(s, h) if h.kind == "plan" else []) or s.lines_of("trouble_ongoing", table="reactions") \
            or s.lines_of("worry", table="reactions")
        if ongoing:
            return ongoing
    mood = {"good": "good_news", "bad": "bad_news"}.get(h.mood, "")
    # A plan is ahead: looked forward to or cheered on; good news only when told as decided
    # ('結婚することになりました'), never wished well as done ('プロポーズしよう思てんねん' → 'よかったね',
    # '友達の結婚式に行くの' → 'おめでとう').
    kind = "plan" if h.kind == "plan" and not (mood == "good_news" and h.decided) \
        else mood or ("feeling" if h.kind == "feeling" else "news")
    if kind == "plan" and not h.mood and h.decided:
        # '店、今月で閉めることになってしもうた': decided for them, its feeling unsaid; no cheer when unsure
        kind = "news"
    if kind == "plan" and not h.mood and listening_cues.TRAILS_OFF.search(s.line):
        # '明日、歯医者で親知らず抜くんよ…': a thing ahead told trailing off is dreaded, never looked forward to
        said = s.lines_of("worry", table="reactions")
        if said:
            return said
    if kind == "plan" and not h.mood and h.polarity < 0:
        # a thing ahead told badly ('来週試験なんだ': 試験 scores badly) is never looked forward to
        said = encouraged(s, h)
        if said:
            return said
        kind = "news"
    named = lexicon.named_in(s.line)
    if kind == "plan" and not h.mood and EFFORT not in h.emotions and EFFORT_CONCEPT not in named \
            and LEISURE not in named and not any(mark in s.line for mark in listening_cues.EXCLAIMED):
        # '明日歯医者なんだ': a thing ahead nobody said they look forward to is taken in ('そっか、歯医者なんだね。'),
        # never 楽しみ ('来月からロンドンに留学なんだ！' is told excited, and looked forward to with them)
        said = s.lines_of("plan_noted", table="reactions", topic=h.clause) if h.clause else []
        if said:
            return said
        kind = "news"
    plain = not h.clause or (not h.verbal and kind != "plan") or "relieved" in h.emotions
    if kind == "good_news" and MILESTONE in h.emotions:  # '昇進決まった！': congratulations, where the pack has them
        said = s.lines_of("celebrate_plain", table="reactions") if plain else \
            s.lines_of("celebrate", table="reactions", topic=h.clause)
        if said:
            return said
    if RELIEVED in h.emotions and h.mood == "good":  # '熱さがった〜', '明日退院できるって': relieved with them
        said = s.lines_of("relief", table="reactions")
        if said:
            return said
    told = told_back(s.line, h) if plain and kind == "good_news" and "relieved" not in h.emotions else ""
    if told:  # '初めてのボーナスだ〜😊': the noun it ends on said back ('わあ、ボーナスなんだ！すごいね！')
        return s.lines_of(kind, table="reactions", topic=told)
    if plain:
        # a bare noun is no news ('金魚なんだ…'); a trouble over is met as such ('よかったね！'), not said back
        return s.lines_of(kind + "_plain", table="reactions")
    # '試験受けるんだ', '面談、来週あるっちゃけど…': cheered on, wherever the line names it; a plan of leisure is
    # looked forward to
    if kind == "plan" and (EFFORT in h.emotions or EFFORT_CONCEPT in named) and LEISURE not in named:  # '花火大会
        return s.lines_of("plan_effort", table="reactions", topic=h.clause) or s.lines_of(kind, table="reactions",
                                                                                  topic=h.clause)
    return s.lines_of(kind, table="reactions", topic=h.clause)


def told_back(line: str, h: Understanding) -> str:
    """What happened, as it can be said back to take 'んだ': the line's own main predicate ('さっき えきまえで
    ピエロ みた' → 'ピエロみた') or the noun it ends on as what it says ('…三連敗や' → '三連敗な'); '' where the
    reading is not sure of one: a noun it only named, a clause that is the whole line ('手伝った'), one made
    from a request ('全額送金して' → '全額送金した'), one asking ('いくつになるんじゃ'), one cut after a
    particle ('畑さ狸出でた' → 'さ狸出でた') or out of what it belongs to ('猫拾った🐈 うちの子にする！')."""
    # a verb only as what happened ('ピエロみた'), never a remark in the present ('今日も精が出るのう')
    said = h.clause if h.verbal and not h.phrase and h.clause.endswith(TOLD_AS_DONE) else h.predicate
    plain = unspaced(line)
    at = plain.find(unspaced(said.rstrip(listening_cues.NOUN_LINK))) if said else -1
    if at < 0 or plain[:at].endswith(listening_cues.OF):  # 'うちの子にする' is no '子にする'
        return ""
    found = morphemes.words(said)
    if not found or found[0].pos in NOT_A_CLAUSE_START or any(w.lemma in INTERROGATIVES for w in found):
        return ""
    return said


def encouraged(s: Situation, h: Understanding) -> list[str]:
    """A thing of the speaker's to undertake, told badly ('法要で挨拶を頼まれておりまして、人前で話すのがどうにも
    苦手で'): encouraged, naming it (reactions.worry_ahead); [] for anything else."""
    thing = thing_told(s.line, h.topic) if h.topic and not h.phrase else ""
    if not (thing and h.subject == "speaker" and lexicon.undertaking(thing)):
        return []
    return s.lines_of("worry_ahead", table="reactions", topic=thing)


def told_as_past(line: str) -> bool:
    """Whether the line tells a thing done, in the past ('財布落とした', 'パクられてん'), not a state going on."""
    return any(tells_past(w) for w in morphemes.words(line))


def cared(s: Situation, h: Understanding) -> list[str]:
    """Grief, illness, worry, tiredness told: the pack's care for it ([] when the line tells none)."""
    if h.mood == "good":
        return []
    for emotion, pool in _CARE:
        if emotion in h.emotions and emotion == "parting" and h.subject == "third":
            return s.lines_of("unsaid", table="reactions")  # '息子が転校するの': theirs to miss, no parting of its own
        if emotion in h.emotions:
            if emotion in ("unwell", "hurt") and h.subject == "third":
                pool = "unwell_other"  # 'お母さんが風邪で': hope they get well, the speaker is not told to rest
            elif emotion in ("unwell", "hurt") and h.kind == "plan":
                pool = "worry"  # '明日手術なんだ': ahead, worried with; not told to rest as if ill now
            # '来週プレゼンなんだけど、不安で', '試験なんだ。緊張する': the thing ahead named (試験, before the
            # nerves), the speaker encouraged for it
            if pool == "worry" and not h.emotions - ENCOURAGED \
                    and (h.kind == "plan" or (h.kind == "feeling" and lexicon.names_a_time_ahead(s.line))):
                said = encouraged(s, h)
                if said:
                    return said
            said = s.lines_of(pool, table="reactions")
            if said:
                return said
    return []
