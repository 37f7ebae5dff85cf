"""What a line tells of, read by the lexicon's words (concepts.json): eating asked of (`meals`), a thing
found or come back (`found`), talking together, a thing shown (`showing`); each asked by one reader, not a tag of
the line. And what a line tells beside what it asks: an aside to its question, or news of its own."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from karakuri_agent.ja.listening_cues import (
    ASIDE_CHARS,
    HOW_IT_LOOKS,
    LEADING_MARKS,
    QUESTION_MARKS,
    THANKS,
    TRAILING_KEDO,
)
from karakuri_agent.ja.sentences import TRAILING_MARKS
from karakuri_agent.ja.speech_words import APOLOGY, LIKE_WORD
from karakuri_agent.ja.name_words import HONORIFICS
from karakuri_agent.ja.word_classes import (
    ASKED_TO_HEAR, EVEN, EXISTING, GUESSING, ODD_ASKED, TALKING, TELLING_OF, VOLITIONAL_FORM,
)
from karakuri_agent.reading.greetings import greeting
from karakuri_agent.reading.lexicon import concepts, named_in, section, tags
from karakuri_agent.reading.morphemes import Word, lemma_set, words
from karakuri_agent.reading.phrase import negated
from karakuri_agent.reading.sentiment import feel

__all__ = ["about_talking", "aside", "eats", "meal_asked", "shows_a_thing", "tells_found"]


@functools.lru_cache(maxsize=1)
def _meals() -> tuple[tuple[str, ...], frozenset[str]]:
    table = section("meals")
    return table["meals"], lemma_set(table["eating"])


def eats(text: str) -> bool:
    """Whether ``text`` names eating or drinking (concepts.json `meals.eating`, by lemma): '厚切りトーストを
    食べる', '朝まんまは何食ったんだ'."""
    return any(w.lemma in _meals()[1] for w in words(text))


def meal_asked(asking: str) -> bool:
    """Whether a question asks what the agent ate or drank ('お昼なに食べた？', 'きょうのおやつ、なんだった？'):
    a meal named, or eating asked of (concepts.json `meals`)."""
    return any(m in asking for m in _meals()[0]) or eats(asking)


def about_talking(text: str) -> bool:
    """Whether a line speaks of talking together ('話してると楽しい', 'しゃべってると元気出る')."""
    return any(w.lemma in TALKING for w in words(text))


def tells_found(text: str) -> bool:
    """Whether a line tells of a thing found or come back (concepts.json `found`: 届いてた, 見つかった,
    帰ってきた), not negated; what it resolves is in the talk before it."""
    found = words(text)
    lemmas = _found_lemmas()
    return any(w.lemma in lemmas and not negated(found, i) and not _guessed(found[i + 1:i + 6])
               and not (w.lemma in EXISTING and i and found[i - 1].pos == "adverb") for i, w in enumerate(found))


def _guessed(after: Sequence[Word]) -> bool:
    """Whether the words after a verb only guess ('色々あったみたいでさ', 'その後なに入るんやろな'): told as a guess,
    nothing was found ('色々' before ある says how much, not what)."""
    for word in after:
        if word.pos == "symbol":
            return False
        if word.lemma in GUESSING or word.surface in GUESSING or (word.pos == "auxiliary" and word.form.startswith(VOLITIONAL_FORM)):
            return True
    return False


@functools.lru_cache(maxsize=1)
def _found_lemmas() -> frozenset[str]:
    return lemma_set(concepts()["found"].lemmas)  # as written ('見つかる') and as the analyzer's (見付かる)


def shows_a_thing(text: str, told: str, asking: list[str], own_names: tuple[str, ...]) -> bool:
    """Whether the line shows the listener a thing and tells nothing besides ('じゃーん😆 どうかな？', '見て見て！',
    'じゃーん！新しい靴！似合う？'; concepts.json `showing`), at most asking how it looks; 'はがぬけたの！みてみて！'
    tells of a tooth, 'じゃーん、明日どこ行く？' asks of a plan."""
    if "showing" not in named_in(text):
        return False
    shows = (*concepts()["showing"].surfaces, *own_names)
    return not any(w.pos == "verb" for w in words(_without(told, shows))) \
        and all(HOW_IT_LOOKS.search(_without(a, shows)) for a in asking)


def asks_if_odd(asking: list[str], own_names: tuple[str, ...]) -> bool:
    """Whether the line's last question asks if a thing of the speaker's looks odd ('この髪色、変じゃない？',
    'どう？変じゃない？'; word_classes.ODD_ASKED): reassurance sought, not of the agent ('ニケちゃん、変じゃない？')."""
    last = asking[-1].rstrip(QUESTION_MARKS + TRAILING_MARKS) if asking else ""
    return last.endswith(ODD_ASKED) and not any(n and n in last for n in own_names) \
        and all(HOW_IT_LOOKS.search(a) for a in asking[:-1])  # 'なんで…名前なん？おかしない？' asks why


def _without(text: str, said: tuple[str, ...]) -> str:
    for word in said:
        text = text.replace(word, "")
    return text.lstrip(LEADING_MARKS)


def aside(after: list[str], asked: str) -> bool:
    """Whether what follows a question only says where the speaker stands ('…どっちが好き？私は断然
    ミステリーです') or remarks on it ('かさもってる？あめふりそう', '…ある？おしえてほしいいい', '兄弟おるん？
    一人っ子っぽい顔してるけどなあ'), or why it is asked, trouble and all ('この町ってコインランドリーある？
    うちの洗濯機壊れてさ', '酒とか飲めるとや？見た目じゃ分からんけん聞いとくばい'): sentences that name the
    speaker, or ones that thank or apologise for nothing ('まじ神すぎん？ありがと〜' is thanks) and tell no
    glad news unless in a few words ('海鮮丼いかん？うまい店あるで'); the question is still what the line asks.
    After a greeting asked ('元気？') or a question asking only to be heard ('ねえねえ、知ってる？'), only short
    ones that tell no trouble: '元気？最近ずっと体調悪くて' tells."""
    verbs = [w.lemma for w in words(asked) if w.pos == "verb"]
    if greeting(asked) or (verbs and all(v in ASKED_TO_HEAR for v in verbs)):
        return bool(after) and all(len(s) <= ASIDE_CHARS and not feel(s).troubled for s in after)
    return bool(after) and all("first_person" in tags(words(s), s)
                               or TRAILING_KEDO.search(s)  # '…あんの？そうぞうできないんだけど'
                               or (not THANKS.search(s) and not APOLOGY.search(s)
                                   and (len(s) <= ASIDE_CHARS and not feel(s).troubled or feel(s).mood != "good"))
                               for s in after)


def the_agent_included(text: str, own_names: tuple[str, ...]) -> bool:
    """Whether the line counts the agent in, by its name and も ('ニケさんも、もしよかったら'): asked along."""
    return any(rest.startswith(EVEN) for rest in _after_the_name(text, own_names))


def _after_the_name(text: str, own_names: tuple[str, ...]) -> list[str]:
    """What follows each time the agent is named, past its honorific."""
    found = []
    for name in filter(None, own_names):
        for at in re.finditer(re.escape(name), text):
            rest = text[at.end():]
            found.append(rest[next((len(h) for h in HONORIFICS if rest.startswith(h)), 0):])
    return found


def tells_its_taste(text: str, own_names: tuple[str, ...]) -> bool:
    """Whether the line tells the agent's own taste ('ニケちゃんって本好きだよね': its name opens what is told, a
    liking said), no feeling for the agent; being with it named ('ニケちゃんと話すの好き') is still fondness."""
    return LIKE_WORD in text and "co_presence" not in named_in(text) \
        and any(rest.startswith(TELLING_OF) for rest in _after_the_name(text, own_names))
