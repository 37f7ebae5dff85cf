"""A question of the town, not of the agent: 'じんじゃの きつねって ほんもの？', '郵便局ってどこだっけ？'.

It names a place or a thing of the town and asks what, where, when, how
much, or whether it is true of it (concepts.json `town_questions`, its
things written as people write them and compared by the analyzer's lemma,
or as written where the analyzer cuts them: '図書・館', '祠' read as a verb).
The thing asked of is the last one named, not one where something is done
('公園でなにしてたの？' asks of the agent's day). The agent was never told
the town's facts: it answers as one who lives there and does not know,
naming the thing (answers.world_unknown_of).
"""

from __future__ import annotations

import functools

from karakuri_agent.ja.listening_cues import EVER_DONE, PAUSE
from karakuri_agent.ja.question_words import LIKE
from karakuri_agent.ja.word_classes import (
    ABSENT, EXISTING, HONORIFIC_SUFFIXES, NO_KIND_OF_PLACE, PLACE_ENDINGS, PLACE_TOPIC_MARKS,
)
from karakuri_agent.reading.lexicon import nested_section, section, self_topic
from karakuri_agent.reading.morphemes import Word, lemma_set, words


__all__ = ["is_town_thing", "near_here", "place_names", "place_sought", "town_thing", "whether_there_is"]


@functools.lru_cache(maxsize=1)
def _town_questions() -> tuple[frozenset[str], frozenset[str], tuple[str, ...], frozenset[str], frozenset[str]]:
    table = section("town_questions")
    return (lemma_set(table["things"]), lemma_set(table["asking"]), table["where_done"], lemma_set(table["going"]),
            lemma_set(table["the_way"]))


@functools.lru_cache(maxsize=1)
def _near_and_generic() -> tuple[frozenset[str], frozenset[str]]:
    table = section("town_questions")
    return frozenset(table["near_here"]), frozenset(table["generic_places"])


def near_here(word: str) -> bool:
    """Whether a word only says where near here ('辺', 'あたり', '近く'; concepts.json `near_here`): no thing."""
    return word in _near_and_generic()[0]


@functools.lru_cache(maxsize=64)  # the question reader and its topic ask of the same line
def town_thing(asking: str) -> str:
    """The place or thing of the town a question asks what, where, when or whether it is true of, as the
    line writes it ('郵便局ってどこだっけ？' → '郵便局', 'じんじゃの きつねって ほんもの？' → 'きつね'); '' when the
    question asks none (concepts.json `town_questions`)."""
    things, asked, where_done, going, the_way = _town_questions()
    found = words(asking)
    if not any(w.lemma in asked or w.surface in asked for w in found):
        return ""
    lemmas = {w.lemma for w in found} | {w.surface for w in found}
    if lemmas & going and not lemmas & the_way:
        return ""  # '次はいつ神社行くの？' asks of someone's going there, not of the town
    asking = "".join(asking.split())
    # the last one named is the one asked of ('じんじゃの きつねって ほんもの？' asks of the fox, not the shrine),
    # by its lemma (じんじゃ is 神社) or as written where the analyzer cut it ('図書・館', '祠' read as a verb)
    named: list[tuple[int, int, str]] = []
    at = 0
    for w in found:
        at = max(asking.find(w.surface, at), at)
        if w.lemma in things or w.surface in things:
            named.append((at + len(w.surface), len(w.surface), w.surface))
        at += len(w.surface)
    named += [(i + len(t), len(t), t) for t in things if (i := asking.rfind(t)) >= 0]
    # where something is done is not what is asked of ('公園でなにしてたの？' asks of the agent's day)
    named = [n for n in named if not asking.startswith(where_done, n[0])]
    return max(named)[2] if named else ""


def is_town_thing(topic: str) -> bool:
    """Whether a topic is a place or thing of the town (`town_questions`), to be named when not known."""
    things = _town_questions()[0]
    return bool(topic) and (topic in things or any(w.lemma in things or w.surface in things for w in words(topic)))


@functools.lru_cache(maxsize=64)  # the hearing and the voice ask of the same question
def whether_there_is(asking: str) -> str:
    """The place a question asks whether there is, as written ('商店街に本屋ってあったっけ？' → '本屋',
    'この町に図書館ってある？' → '図書館', '百均ってこの町にあったっけ？', '安くていい美容院ない？', '古本屋とか
    この辺あると？'): the nouns before a verb of being there (or ない), past where near here it is and the
    word that marks it; '' when it asks no such thing, or of a thing that is no place ('悩みってある？')."""
    found = words(asking)
    for i, word in enumerate(found):
        if not (word.lemma in EXISTING or (word.pos == "adjective" and word.lemma in ABSENT)) or i < 1:
            continue
        j = i - 1
        while j >= 0 and (found[j].pos in ("particle", "symbol", "adnominal", "pronoun")
                          or near_here(found[j].surface) or near_here(found[j].lemma)):
            j -= 1  # 'この辺', 'どっか', 'とか', 'って': where near here, and the word that marks the thing
        end = j + 1
        while j >= 0 and found[j].pos in ("noun", "suffix", "prefix") and not near_here(found[j].surface):
            j -= 1
        thing = "".join(w.surface for w in found[j + 1:end])
        plain = next((thing[:-len(s)] for s in HONORIFIC_SUFFIXES if thing.endswith(s) and len(thing) > len(s)), thing)
        # a place ('本屋', '図書館', 'プール') or a thing of the town; '悩み', '苦手な食べ物' are the agent's own
        if plain and plain not in _near_and_generic()[1] and (plain.endswith(PLACE_ENDINGS) or is_town_thing(plain)):
            return plain
    return ""


@functools.lru_cache(maxsize=1)
def _places_for() -> tuple[tuple[str, ...], tuple[tuple[str, frozenset[str]], ...]]:
    table = nested_section("place_for")
    kinds = tuple((kind, lemma_set(spec["for"]) | frozenset(spec["for"])) for kind, spec in table["kinds"].items())
    return tuple(table["asking"]), kinds


def place_sought(asking: str) -> str:
    """The kind of place a question looks for in the town ('静かに勉強できる場所ってありますか？' → '図書館',
    'デートするならどこがおすすめ？' → '公園'; concepts.json `place_for`), '' when it looks for none."""
    asked, kinds = _places_for()
    text = "".join(asking.split())
    if not any(word in text for word in asked):
        return ""
    found = {w.lemma for w in words(text)} | {w.surface for w in words(text)}
    # as written only where the word is long enough not to be part of another ('パン' of 'パンク')
    return next((kind for kind, wanted in kinds if found & wanted or any(w in text for w in wanted if len(w) > 2)), "")


def place_names(kind: str) -> tuple[str, ...]:
    """The words a place of ``kind`` is named by ('パン屋' → 'パン屋', 'ベーカリー', ...; concepts.json
    `place_for`), the kind itself when the lexicon has none."""
    spec = nested_section("place_for")["kinds"].get(kind)
    return tuple(spec["names"]) if spec else (kind,)


def framed_by_the_town(asking: str) -> bool:
    """Whether a question asks for a place or a thing of the town, framed by it ('この町で夕日きれいに見えるとこ
    ある？', 'この町の言い伝えで、有名なものってありますか？'; concepts.json `town_questions.frames`): a place of no
    kind, or whether there is one, asked there; not what it asks of the agent's own time in the town ('この町、
    長いの？', 'この町の冬ってどう思う？'), which its topics say."""
    text = "".join("".join(asking.split()).split(PAUSE))
    if not any(frame in text for frame in section("town_questions")["frames"]):
        return False
    found = words(text)
    generic = _near_and_generic()[1]
    return any(w.lemma in EXISTING or w.surface in generic or w.lemma in generic for w in found)


@functools.lru_cache(maxsize=1)
def _open_or_there() -> frozenset[str]:
    return lemma_set(section("town_questions")["open_or_there"])


def place_asked_of(asking: str) -> str:
    """The place of the town a question asks whether it is open or there, named first ('商店街のたい焼き屋、まだ
    やってるん？', '駅前の郵便局、土曜日もやっとったかね', '喫茶店って今日開いとーと？'): a word ending as places do
    (屋, 局, 館...) or a town thing, before its topic mark; '' for anything else ('神社にはもう行ったことありま
    すか？' asks what the agent did, 'ところで、来週はお忙しいですか？' names no place)."""
    text = "".join(asking.split())
    cut = min((at for at in (text.find(mark) for mark in PLACE_TOPIC_MARKS) if at > 0), default=-1)
    if cut < 0 or LIKE.search(text) or EVER_DONE.search(text):
        return ""  # '本屋は好き？' asks its taste, '…行ったことある？' what it has done
    before = [w for w in words(text[:cut]) if w.pos != "symbol"]
    run: list[Word] = []
    for word in reversed(before):  # the noun the topic mark follows, with the words it is compounded of
        if word.pos not in ("noun", "suffix", "prefix"):
            break
        run.insert(0, word)
    while run and run[-1].surface in HONORIFIC_SUFFIXES:  # '本屋さん'
        run.pop()
    if not run or run[-1].pos not in ("noun", "suffix") or not any(w.lemma in _open_or_there() for w in words(text[cut:])):
        return ""  # what it is asked of is whether it is open or there ('やってる', '開いとー'), not what one did
    last, name = run[-1], "".join(w.surface for w in run[-2:])  # '喫茶' + '店', '郵便' + '局'
    generic = _near_and_generic()[1]
    if (len(run) == 1 and (last.surface in generic or last.lemma in generic)) or last.surface in NO_KIND_OF_PLACE \
            or last.lemma in NO_KIND_OF_PLACE:
        return ""  # a place of no kind ('お店って開いてる？', 'おめさんとこ'): no thing of the town named
    things = _town_questions()[0]
    if name.endswith(PLACE_ENDINGS) or last.lemma.endswith(PLACE_ENDINGS) or last.lemma in things or name in things:
        return name
    return ""
