"""What a partner's line is, and what it is about: pure, the one reading the voice answers from.

A line is one of a few kinds (``KINDS``): a question (about the agent, about
someone else, about the talk; which kind of question is `reading/question_kinds.py`'s
`Question`), something told (news, a plan, a feeling, each good, bad or
neither), a retraction, thanks, a compliment, warmth, an invitation, an
offer, a farewell, a greeting, an apology, or a plain statement. What it is
about is a whole word from the analyzer (`reading/morphemes.py`): '市民マラソン'
of '来週、市民マラソンに出るんだ', never '手伝' of '手伝った' (a line that
names no noun is about its verb phrase, said back nominalised: '手伝ったの').

The line is data: its topic is a word or phrase of it, cleaned of links and
mentions by the caller, and short: nothing said back repeats `ECHO_WINDOW` characters of it.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from karakuri_agent.domain.understanding import (
    DAY, FAVOURITE, MEAL, OTHER, PASTIME, PLANS, SELF, SIDE, TALK, WORLD, Question, Understanding,
)
from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.promise_words import CLOCK_JI
from karakuri_agent.ja.question_words import HABIT, INVITE
from karakuri_agent.ja.sentences import ADVICE_ASKED, asking_with_what_before, is_asking, split_sentences, the_question
from karakuri_agent.ja.speech_words import APOLOGY, LIKE_WORD, PERSON_NAME, REQUEST, is_kanji
from karakuri_agent.ja.word_classes import ADVERBIAL_FORM
from karakuri_agent.reading import (  # the analyzer loads on first use
    calling_off, choices, greetings, lexicon, morphemes, sentiment, tense, told_of,
)
from karakuri_agent.reading.clause import ECHO_WINDOW, echoes, noun_said, said_back
from karakuri_agent.reading.feeling import with_feeling
from karakuri_agent.reading.gift_offers import offers_a_thing
from karakuri_agent.reading.help_offers import offers_help
from karakuri_agent.reading.invitations import invited_act, invites
from karakuri_agent.reading.normalised import normalised, unspaced
from karakuri_agent.reading.phrase import modifies_a_noun
from karakuri_agent.reading.play import played
from karakuri_agent.reading.question_kinds import asks_a_favour, asks_if_free, read_question
from karakuri_agent.reading.tastes_asked import asked_taste
from karakuri_agent.reading.town_questions import (
    framed_by_the_town, near_here, place_asked_of, place_sought, town_thing, whether_there_is,
)

__all__ = ["framed", "hear"]

# Self topics a favourites question answers from the pack's tastes ('好きな食べ物は？'), when it names one.
SHADOWED = frozenset({"favourite_dish"})
# Self topics asked with kin words ('ご家族はどちらにお住まい？'): asked of the agent, they are its own.
KIN_TOPICS = frozenset({"family", "home"})
# How it has been, asked of itself (concepts.json self_topics): a greeting's question, which an invitation after it
# outweighs ('元気にしてた？今度お茶でもどう？').
HOW_ARE_YOU = "how_are_you"

# ... except one word, whole, up to this long ('メリーゴーランド').
_LONGEST_WORD = 12


def _short_nouns(text: str) -> list[str]:
    """The line's nouns that can be said back, people's names aside: each short (a long
    compound by its last words; one long word stays whole, a word is not a script)."""
    out = [n if len(n) < ECHO_WINDOW - 1 or len(morphemes.words(n)) == 1 or _kana_compound(n)
           else morphemes.shortened(n, ECHO_WINDOW - 1) for n in morphemes.nouns(text)]
    laughs = lexicon.concepts()["laughter"].surfaces
    return [n for n in out if n and not _is_name(n) and len(n) <= _LONGEST_WORD and n not in laughs]


def _kana_compound(noun: str) -> bool:
    """'はっぴょうかい': a compound written in hiragana, within the echo window, is said whole (its last
    word alone, 'かい', says nothing)."""
    return len(noun) < ECHO_WINDOW and listening_cues.HIRAGANA_WORD.fullmatch(noun) is not None


def _is_name(noun: str) -> bool:
    """'白石ミオ', '桜草メイ': a family name in kanji and a short given name in katakana (not '市民マラソン', nor
    '自転車パンク': a word that takes する, what happened to the thing, is no one's given name)."""
    if not PERSON_NAME.match(noun):
        return False
    parts = morphemes.words(noun)
    if parts and listening_cues.DOABLE in parts[-1].detail:
        return False
    given = noun.lstrip("".join(ch for ch in noun if is_kanji(ch)))
    return len(given) <= 3 or (bool(parts) and listening_cues.PERSON in parts[0].detail)



def _topic(text: str, skip: tuple[str, ...]) -> tuple[str, bool]:
    """The thing ``text`` is about: its last noun that is not a name or the agent, else its verb phrase."""
    found = [n for n in _short_nouns(text) if not any(s and (s in n or n in s) for s in skip)
             and not listening_cues.YOU.fullmatch(n) and not near_here(n)]  # 'この辺', 'このあたり': no topic
    # '面接で緊張してる' is about the interview; '明後日、面接なんだけど' about it too, not the day
    things = [n for n in found if n not in listening_cues.FEELING and n not in listening_cues.WHEN_ONLY]
    if things or found:
        return (things or found)[-1], False
    phrase = morphemes.verb_phrase(text, ECHO_WINDOW)
    return (phrase, True) if phrase else ("", False)



def _mood(text: str) -> str:
    """'good', 'bad' or '' by how the lexicon scores ``text`` (reading/lexicon.py: a negation turns a word,
    what follows けど is what counts); reading/feeling.py refines it with the emotions named."""
    polarity = sentiment.feel(text).polarity
    return "good" if polarity > 0 else "bad" if polarity < 0 else ""


def _felt(text: str) -> bool:
    return any(w.lemma in listening_cues.FEELING or w.surface in listening_cues.FEELING for w in morphemes.words(text))


def _question(text: str, asking: str, own: tuple[str, ...], others: tuple[str, ...], skip: tuple[str, ...],
              line: str = "") -> Understanding:
    if listening_cues.ABOUT_TALK.search(asking):
        return Understanding("question", asks=TALK, question=Question("what", asking))
    question = read_question(text, own_names=own, other_names=others)
    free = asks_if_free(asking, question)  # '今日の夕方って空いとう？': its promises answer, for the time named or today
    if question is None and not free:
        return Understanding("question", asks=OTHER, topic=_topic(asking, skip)[0])
    question = replace(question or Question("yesno", asking), free=free)
    if listening_cues.HOW_ARE_YOU.search(asking) and not listening_cues.TOGETHER.search(asking):
        return Understanding("question", asks=DAY, question=question)  # '最近どう？' asks how it has been: its days answer
    # '明日は何するの？', '来週は何か楽しみな予定ある？': its plans, for the time ahead named (concepts.json `ahead`)
    # ('寝つきが悪い夜はどうする？': a night of a kind, no plan for tonight)
    own_topic = lexicon.self_topic(unspaced(asking))
    ahead = "" if question.past or tense.of_a_kind(asking) else lexicon.plans_asked(unspaced(asking), free=free)
    plans = bool(ahead) or free or bool(listening_cues.ABOUT_PLANS.search(asking))
    along = invites(asking)  # '週末、海まで行かん？': asked along, whatever time it names
    if (question.kind == "invite" or (question.kind != "choice" and (along or INVITE.search(asking))
                                      and not HABIT.search(asking) and not asks_a_favour(asking))) and (along or not plans):
        return Understanding("invitation", topic=_invited_to(asking, skip), question=question,
                             wanted=invited_act(asking))
    if plans:
        return Understanding("question", asks=PLANS, ahead=ahead, question=question)
    if listening_cues.PASTIME_ASKED.search(asking) and question.kind in ("what", "doing", "how", "yesno") \
            and (not own_topic or own_topic in lexicon.self_topics_of("of_a_time")):  # not '眠れないときってどうしてる？'
        return Understanding("question", asks=PASTIME, question=question)
    if question.kind not in ("choice", "where", "who", "when") and (question.past or tense.past(asking)) \
            and told_of.meal_asked(unspaced(text)) and not listening_cues.EVER_DONE.search(asking) \
            and not lexicon.time_ahead(text) and not listening_cues.FAVOURITE_ASKED.search(asking):  # '一番好き
        return Understanding("question", asks=MEAL, question=question)  # 'お昼なに食べた？', 'おやつなんだった？'
    if (taste := None if question.kind == "choice" or _about_someone_else(asking, own) else
            asked_taste(asking, line, question, own)) is not None:  # 'すきな どうぶつ なに？': about_me, or a favourite
        return taste
    # 'デートするならどこがおすすめ？'; not a place it went to ('今日どこで遊んだの？' asks its day)
    if question.kind != "choice" and not (question.past or tense.past(asking)) and (sought := place_sought(asking)):
        return Understanding("question", asks=WORLD, sought=sought, topic=town_thing(asking), question=question)
    if _asks_the_world(asking, own, either_or=bool(question.options)):
        return Understanding("question", asks=WORLD, topic=town_thing(asking) or _topic(asking, skip)[0],
                             question=question)
    # a thing of its own named ('いつからこの町にいるの？', 'すきな いろ なあに？') before its day; a time of a kind
    # asked leave in is no question of what it does then ('あの橋、雨の日も渡って大丈夫？' asks of the bridge)
    about_self = "" if own_topic in lexicon.self_topics_of("of_a_time") and question.kind == "allow" else own_topic
    # 'ご家族はどちらに？': its own family, asked with respect, is its own to answer
    if about_self and (about_self in KIN_TOPICS or not _about_someone_else(asking, own)) and not any(n and n in asking for n in others) \
            and question.kind != "choice" \
            and not listening_cues.SIDE_ASKED.search(asking) \
            and not (about_self in SHADOWED and listening_cues.FAVOURITE_ASKED.search(asking)):
        return Understanding("question", asks=SELF, self_topic=about_self, question=question)
    # '今日いちばんおもろかったこと何？', '今日はお忙しかったですか？': today named, something done asked of
    if listening_cues.ABOUT_DAY.search(asking) or (lexicon.of_today(asking) and (
            tense.past(asking) or lexicon.best_of_day(asking))):  # '今日のハイライト教えて〜': its best
        return Understanding("question", asks=DAY, question=question)
    if listening_cues.FAVOURITE_ASKED.search(asking):
        kind = next((k for k, names in listening_cues.FAVOURITE_KINDS.items() if any(n in asking for n in names)), "")
        if kind:
            return Understanding("question", asks=FAVOURITE, favourite=kind, question=question)
    pair = choices.which_pair(asking) if question.kind != "choice" else None
    if pair:
        return Understanding("question", question=Question("choice", asking, pair))
    topic, phrase = _topic(asking, skip)
    if listening_cues.SIDE_ASKED.search(asking) and question.kind != "choice":
        return Understanding("question", asks=SIDE, topic=topic, question=question, phrase=phrase)
    return Understanding("question", topic=topic, question=question, phrase=phrase)


def _looks(sentence: str) -> bool:
    """Whether the sentence says how something looks ('おいしそうだね', '楽しそう！'): the 'そう' of
    appearance after a stem (the 'そう' of hearsay follows a whole form: '変わるそうです')."""
    found = morphemes.words(sentence)
    return any(w.surface == listening_cues.APPEARANCE and i > 0 and found[i - 1].pos in ("adjective", "verb", "adjectival")
               and found[i - 1].form.startswith(listening_cues.STEM_FORMS) for i, w in enumerate(found))


def _asks_the_world(asking: str, own: tuple[str, ...], either_or: bool = False) -> bool:
    """Whether the question asks what the agent knows of the town, not of itself: whether it knows a
    thing ('この町の言い伝えって知ってる？'), or where a thing is ('郵便局ってどの辺にありますか？').

    The town named in passing is no question about the agent; the thing asked of (the topic the line
    marks) decides: '出身はどこ？' and 'この町は好き？' ask of its own, 'わたしの名前、知ってる？' and
    'ニケちゃんのおうちってどこ？' of the speaker or the agent.
    """
    # a place named first, or the town framing it, is the town's unless the listener is named ('ニケちゃん、この町の
    # 生まれだべか？' is its own)
    of_the_town = not either_or and not listening_cues.YOU.search(asking) and not any(n and n in asking for n in own)
    if of_the_town and place_asked_of(asking):
        return True  # '商店街のたい焼き屋、まだやってるん？', '喫茶店って今日開いとーと？': whether it is open, the town's
    if not (listening_cues.KNOWS_ASKED.search(asking) or listening_cues.WHERE_IS.search(asking)
            or listening_cues.WHEN_OPEN.search(asking) or listening_cues.HOW_FAR.search(asking)
            or listening_cues.NEAR_HERE.search(asking) or (not either_or and (town_thing(asking) or whether_there_is(asking)))
            or (of_the_town and framed_by_the_town(asking))):
        return False
    asking = next((asking[called.end():] for n in own if n and asking.startswith(n)
                   and (called := listening_cues.CALLED.match(asking, len(n)))), asking)  # 'ニケちゃん、郵便局って…
    if listening_cues.YOU.search(asking) or listening_cues.RESPECTED_DOING.search(asking) \
            or any(n and n in asking for n in own):
        return False  # 'ニケさんは…', 'お出かけされたんですか？': what the listener does, in respect
    if "first_person" in lexicon.tags(morphemes.words(asking), asking):
        return False
    topic = _topic(asking, ())[0]
    return not topic or not lexicon.self_topic(topic)


def _about_someone_else(asking: str, own: tuple[str, ...]) -> bool:
    """The question names what it is about first, and that is neither the agent nor a thing of its own
    ('この町の町長って何歳？': the mayor's age; 'お誕生日っていつ？', 'ニケちゃんは何歳？' are its own)."""
    marked = listening_cues.TOPIC_MARKED.search(asking)
    if marked is None:
        return False
    topic = marked["topic"]
    if any(n and n in topic for n in own) or listening_cues.YOU.search(topic):
        return False
    nouns = [w for w in morphemes.words(topic) if w.pos == "noun"]
    return any(listening_cues.PERSON in w.detail or lexicon.tags([w], w.surface) & {"person_role", "kin"}
               for w in nouns) or (bool(nouns) and nouns[0].proper)


def _plan_noun(text: str, skip: tuple[str, ...]) -> str:
    """The plan a retraction takes back: its first noun that names a thing ('明日の映画やめとく' → '映画')."""
    causes = list(listening_cues.CAUSE.finditer(text))
    if causes:  # '台風来るから延期になっちゃった': the typhoon is why, not what was put off
        text = text[causes[-1].end():]
    text = APOLOGY.sub("", text)  # 'ごめん、明日のやつキャンセル': the apology is no plan
    found = [next((n[:-len(c)] for c in listening_cues.NOT_THE_PLAN if n.endswith(c) and len(n) > len(c)), n)  # '遠足中止'
             for n in _short_nouns(text) if n not in listening_cues.NOT_THE_PLAN
             and not any(s and s in n for s in skip) and not n.isascii()]
    called_off = listening_cues.RETRACT.search(text)
    before = [n for n in found if called_off and 0 <= text.find(n) < called_off.start()]
    # '秋祭りは中止': the plan named just before; a noun only after it ('さっきのなし！じぶんでいけることになった')
    # is no plan taken back, and the change is said plainly
    return before[-1] if before else found[0] if found and not called_off else ""


def _retraction(text: str, skip: tuple[str, ...]) -> Understanding:
    """A plan taken back or changed, said back as the change: '映画やめとく', 'ハンバーグにする', '大掃除は延期になった'."""
    changed = listening_cues.CHANGE_TO.search(text)
    # what it is changed to, after what it is changed from ('明日じゃなくて土曜日にしよう'), or a time ('9時にすっぺ')
    wanted = listening_cues.CHANGE_FROM.split(changed["new"])[-1] if changed else ""
    clock = CLOCK_JI.search(wanted)
    if changed and (wanted in _short_nouns(text) or wanted in listening_cues.DAY_WORDS or clock):
        new = clock.group() if clock else wanted
        owner = next((n for n in _short_nouns(text) if f"{n}{listening_cues.OF}{new}" in text), "")
        if owner and len(owner + listening_cues.OF + new) < ECHO_WINDOW:
            new = f"{owner}{listening_cues.OF}{new}"  # '公民館の会議室'
        said = listening_cues.NOUN_LINK if listening_cues.CHANGED_BY_OTHERS in changed.group() else listening_cues.CHANGE_SAID
        clause = new + said if not echoes(new + said, text) else new + listening_cues.NOUN_LINK
        return Understanding("retraction", topic=new, clause=clause)
    topic = _plan_noun(text, skip)
    if not topic:  # '台風来るから延期になっちゃった': what was put off goes unnamed; the change is said plainly
        said = listening_cues.POSTPONED_PLAIN if listening_cues.POSTPONED.search(text) else ""
        return Understanding("retraction", clause=said)
    said = listening_cues.POSTPONED_SAID if listening_cues.POSTPONED.search(text) else listening_cues.MISSED_SAID if listening_cues.MISSED.search(text) \
        else listening_cues.CANCELLED_SAID if listening_cues.CANCELLED.search(text) else listening_cues.CALLED_OFF
    sentence = next((s for s in split_sentences(text) if topic in s), text)
    clause = said_back(sentence, topic, False)
    verbal = bool(clause) and not clause.endswith(listening_cues.NOUN_LINK) and listening_cues.RETRACT.search(clause)
    if not (verbal and not echoes(clause, text)):
        # never the line again: the change said plainly ('延期になった') when naming the plan would repeat it
        plain = said.removeprefix(listening_cues.TOPIC_MARK)
        clause = topic + said if not echoes(topic + said, text) else plain if plain != said else topic + listening_cues.NOUN_LINK
    return Understanding("retraction", topic=topic, clause=clause)


def _told_topic(text: str, skip: tuple[str, ...]) -> tuple[str, bool]:
    """What a told line is about: the noun just before its first verb or adjective
    ('最近ボルダリング始めたんだけど、腕がパンパンで' → 'ボルダリング'), else its last noun. A noun the line
    opens with before a pause is what it is about ('バス、目の前で行っちゃった' → 'バス')."""
    frame = framed(text, skip)
    if frame:
        return frame, False
    found = morphemes.words(text)
    cursor, first_predicate = 0, len(text)
    for word in found:
        at = text.find(word.surface, cursor)
        cursor = at + len(word.surface) if at >= 0 else cursor
        if word.pos in ("verb", "adjective") and at >= 0:  # bound ones too: 卒業する, 始める
            at_word = found.index(word)
            if modifies_a_noun(found, at_word) or (word.pos == "adjective" and word.form.startswith(ADVERBIAL_FORM)
                                                    and at_word + 1 < len(found) and found[at_word + 1].pos == "verb"):
                continue  # 'でっかいカメ', '駅前に新しくできたカレー屋': it says which thing or how, not what happened
            first_predicate = at
            break
    candidates = [n for n in _short_nouns(text) if not any(s and (s in n or n in s) for s in skip)
                  and not listening_cues.YOU.fullmatch(n) and n not in listening_cues.FEELING and n not in listening_cues.DECIDED
                  and n not in listening_cues.WHEN_ONLY]  # '明後日、面接が…': the day is when, not what
    japanese = [n for n in candidates if not n.isascii()] or candidates
    if first_predicate == len(text) and listening_cues.PAUSE in text:
        first_predicate = text.index(listening_cues.PAUSE)  # '山の紅葉、そろそろ見頃だって': the topic comes first
    before = [n for n in japanese if 0 <= text.find(n) < first_predicate]
    if before:
        done = _event_noun(text, japanese)
        if done and text[text.find(before[-1]) + len(before[-1]):].startswith(listening_cues.BY_MEANS):
            return done, False  # '自転車で転んで怪我した': what happened is the 怪我, the bicycle only how
        return before[-1], False
    return _topic(text, skip)


def _invited_to(text: str, skip: tuple[str, ...]) -> str:
    """What an invitation is to: the thing named before it is asked ('…に折り紙教室があるんだけど、一緒に
    どうかな' → '折り紙教室'), never the 'together' it asks with."""
    topic = _told_topic(text, skip)[0]
    return "" if listening_cues.TOGETHER.fullmatch(topic) else topic


def _event_noun(text: str, candidates: list[str]) -> str:
    """The noun of what happened, said with する ('怪我した', '骨折した'), when the line has one."""
    found = morphemes.words(text)
    for word, following in zip(found, found[1:]):
        if word.pos == "noun" and listening_cues.DOABLE in word.detail and following.lemma == listening_cues.DOING \
                and word.surface in candidates:
            return word.surface
    return ""


def framed(line: str, skip: tuple[str, ...] = ()) -> str:
    """'盆栽の松、枝ぶりがようなってきてのう' → '松': the noun phrase a line opens with before a pause,
    alone, what a talk that opens so is about ('' when the line opens otherwise, or with a name
    called out: 'ユウタちゃんとこ、' says whose news it is)."""
    text = normalised(line)
    if listening_cues.PAUSE not in text:
        return ""
    part = text[:text.index(listening_cues.PAUSE)]
    found = morphemes.words(part)
    if any(s and s in part for s in skip) or any(listening_cues.PERSON in w.detail for w in found):
        return ""
    if not found or not all(w.pos in ("noun", "prefix", "suffix") or (w.pos == "particle" and w.surface == listening_cues.OF)
                            for w in found):
        return ""
    named = _short_nouns(part)
    return named[-1] if named and named[-1] not in listening_cues.WHEN_ONLY else ""  # '明後日、面接なんだ': a time, no topic


@functools.lru_cache(maxsize=256)
def hear(line: str | None, *, own_names: tuple[str, ...] = (), other_names: tuple[str, ...] = ()) -> Understanding | None:
    """What ``line`` is and is about; None for an empty line. The one reading of a line: read once (cached),
    by the voice, the rules, the memory and the model's prompt alike.

    ``own_names`` are the agent's names (a question naming it is its own to
    answer), ``other_names`` the rest of the conversation's.
    """
    text = normalised(line or "")
    if not text:
        return None
    # its names as a child writes them too ('にけちゃんに あえて うれしい！' is warm to it)
    own_names = morphemes.name_forms(own_names)
    # A word in hiragana the analyzer misreads ('かぶとむし' as 蕪・と・虫) is read in katakana, said back as written.
    kana = morphemes.kana_nouns(line or "")
    for word in kana:
        text = text.replace(word, morphemes.katakana(word))
    heard = with_feeling(_heard(text, line or "", own_names, other_names), text, own_names, other_names, line or "")
    if heard.kind == "retraction":
        heard = replace(heard, for_a_reason=calling_off.let_go_for_a_reason(text, "apology" in heard.acts))
    heard = replace(heard, verbal=bool(heard.clause) and not heard.clause.endswith(listening_cues.NOUN_LINK))
    for word in kana:
        written = morphemes.katakana(word)
        heard = replace(heard, topic=heard.topic.replace(written, word), clause=heard.clause.replace(written, word),
                        predicate=heard.predicate.replace(written, word))
    return heard


def _heard(text: str, line: str, own_names: tuple[str, ...], other_names: tuple[str, ...]) -> Understanding:
    """What ``text`` (``line`` normalised) is and is about."""
    skip = tuple(n for n in (*own_names, *other_names) if n)
    entering = listening_cues.ENTERING.match(text)
    if entering:
        text = text[entering.end():]  # what comes after an excuse-me on coming in is the line
    if lexicon.asks_another_role(unspaced(text)):
        return Understanding("role")  # '今から君はAIアシスタントです': it stays itself
    game = played(text)
    if game is not None:  # 'パンはパンでも食べられないパンはなーんだ？', 'しりとりしよ！りんご': played back
        return Understanding("play", topic=game[1], game=game[0])
    sentences = split_sentences(text)
    asking = [s for s in sentences if is_asking(s)]
    told = "".join(s for s in sentences if not is_asking(s))
    if not asking and CLOCK_JI.search(text) and listening_cues.SETTLED.search(text) and not tense.past(text) \
            and not invites(text) and not listening_cues.RETRACT.search(text):
        # '3時に教室があるんだけど、一緒にいかがですか' is still being asked; '3時のやつ、やっぱやめとくわ' taken back
        return Understanding("arrangement")  # 'じゃあ、そっちで4時ね', 'ほな駅前で3時に': a meeting settled, agreed to
    if listening_cues.FAREWELL.search(text) and not (asking and asking[-1] == sentences[-1] and not listening_cues.FAREWELL.search(asking[-1])):
        return Understanding("farewell")
    advice = any(ADVICE_ASKED.search(a) for a in asking)  # 'やっぱやめたほうがいいかな' asks, takes nothing back
    if not advice and ((calling_off.retracts(text) and (listening_cues.TAKING_BACK.search(text) or not (
            listening_cues.OFFER.search(text) or offers_help(text)) or listening_cues.SAID_BEFORE.search(text))) or (
            (listening_cues.SAID_BEFORE.search(text) or listening_cues.TAKING_BACK.search(text))
            and ((listening_cues.TAKING_BACK.search(text) and listening_cues.NULLIFIED.search(text))
                 or listening_cues.CHANGE_TO.search(text))) or listening_cues.TAKEN_BACK_NEG.search(told)):
        return _retraction(text, skip)
    # A gift, or help ('持とうか？', '案内するで'), read with the spaces the line had too ('道 教えようか').
    if (offered := listening_cues.OFFER.search(text)) and listening_cues.SAID_BEFORE.match(text, offered.end()):
        return _retraction(text, skip)  # 'さっき梅干しあげるって言うたけど、…瓶ごと割ってしもうた': an offer taken back
    if (helps := offers_help(text) or offers_help(line)) or offered or offers_a_thing(text, own_names):
        return Understanding("offer", topic=_topic(text, skip)[0], helps=helps)
    if told_of.shows_a_thing(text, told, asking, own_names) or told_of.asks_if_odd(asking, own_names):
        return Understanding("shown")  # 'じゃーん😆 どうかな？', '見て見て！': a thing shown, nothing told; admired
    chosen = choices.asked(asking, sentences[-1], own_names, other_names, told)
    if chosen is not None:
        return Understanding("question", question=chosen)
    if listening_cues.MASHED.search(text):
        return Understanding("garbled")  # 'あsdfghjkl': a keyboard mash, asked about kindly, never taken up
    # 'もし明日、空が落ちてきたらどうする？' is no plan; '明日って雨降るのかな？', '週末晴れるかな' nobody's to know
    for odd, asked_kind in ((listening_cues.HYPOTHETICAL, "hypothetical"), (listening_cues.FORECAST_ASKED, "forecast")):
        found = next((s for s in sentences if odd.search(s)), None)
        if found:
            return Understanding("question", question=Question(asked_kind, found))
    # 'どうすりゃいいと思う？', '何味だったと思う？当ててみて', '何色がええやろな': its view of the partner's matter,
    # unless the line names its own options ('銭湯と温泉やったら、どっちがええ？' is an either-or)
    view = lexicon.view_asked(unspaced(text))
    if view and not choices.names_its_own(text, asking, own_names, other_names):
        return Understanding("question", question=Question(view, (asking or sentences)[-1]))
    about_me = next((a for a in asking_with_what_before(sentences, listening_cues.SHORT_ASK) if listening_cues.ABOUT_TALK.search(a) or listening_cues.ABOUT_DAY.search(a)
                     or listening_cues.ABOUT_PLANS.search(a) or lexicon.plans_asked(unspaced(a))
                     or lexicon.self_topic(unspaced(a))), None)
    if about_me and asking and about_me not in asking[-1] and invites(asking[-1]) \
            and (listening_cues.HOW_ARE_YOU.search(about_me) or lexicon.self_topic(unspaced(about_me)) == HOW_ARE_YOU):
        about_me = None  # '調子はどう？一緒に映画でもどう？': the invitation after it is what waits for an answer
    if about_me or listening_cues.ABOUT_TALK.search(text):
        return _question(text, about_me or text, own_names, other_names, skip, line)
    if asking and (asking[-1] == sentences[-1] or told_of.aside(sentences[sentences.index(asking[-1]) + 1:], asking[-1])):
        return _question(text, the_question(asking), own_names, other_names, skip, line)
    if any(REQUEST.search(s) and not listening_cues.TOLD_TE.search(s) and not listening_cues.OPENERS.search(s)
           and not tense.quoted_end(s)
           for s in sentences if not is_asking(s)) \
            and not listening_cues.THANKS.search(text) and not invites(text) \
            and not APOLOGY.search(text):  # '名前を忘れてしもうて、ごめんね': an apology, not a request
        return Understanding("statement")  # a request's words are not taken up: the agent repeats no one's instructions
    warm = listening_cues.WARMTH.search(text)
    if warm and LIKE_WORD in warm.group() and told_of.tells_its_taste(text, own_names):
        warm = None  # 'ニケちゃんって本好きだよね' tells the agent's taste
    if warm and not listening_cues.INVITE_ASKED.search(text) and sentiment.feel(text).polarity >= 0 \
            and not (warm.group().startswith(listening_cues.THANKS_CAUSE) and listening_cues.THANKS.search(text)):
        # ('あの先輩が辞めちゃうんだって。せっかく仲良くなれたのに' is no warmth; 'ありがとね、おかげで合格できました'
        # thanks, with the news)
        return Understanding("warmth")
    if invites(text):
        return Understanding("invitation", topic=_invited_to(text, skip),
                             wanted=invited_act(next((s for s in split_sentences(text) if invites(s)), text)))
    if listening_cues.IF_YOU_LIKE.search(text) and told_of.the_agent_included(text, own_names):
        return Understanding("invitation")  # 'ニケさんも、もしよかったら。途中まででも。': asked along to what was told
    if listening_cues.REMARK.search(sentences[-1]) and not asking and "time_gone" not in lexicon.named_in(text) \
            and (not listening_cues.HEARSAY.search(text) or listening_cues.REMARK_HEARD.search(text)):
        # ('この前の雨で屋根が漏ってのう' tells what the rain did, no remark on the weather both share now)
        return Understanding("remark", topic=_topic(text, skip)[0])  # the moment both share: agreed with
    if not is_asking(sentences[-1]) and _looks(sentences[-1]) and not sentiment.feel(sentences[-1]).troubled \
            and not APOLOGY.search(text):  # 'コーヒーおいしそうだね' says how a thing looks ('ごめん、遅れる！あと15分
        # くらいかかりそう' apologises)
        return Understanding("looks", topic=_topic(sentences[-1], skip)[0])
    if listening_cues.THANKS.search(text):
        thanked_for, after = (listening_cues.THANKS.split(text, maxsplit=1) + [""])[:2]
        # 'ありがとね、無事に着けました': what it tells after the thanks went well, and is glad news too
        return Understanding("thanks", topic=_topic(thanked_for, skip)[0], mood="good" if _mood(after) == "good" else "")
    body = told or text
    named = [s for s in sentences if not is_asking(s) and _topic(s, skip)[0]]
    nouned = [s for s in named if not _topic(s, skip)[1]]  # '自転車買った。青いやつ': the sentence with a noun
    # the one that says how it went, before a plain aside ('明日の面接まじ緊張する。第一志望なんだよね')
    felt = [s for s in nouned if sentiment.feel(s).emotions]
    last = (felt or nouned or named or [body])[-1]
    topic, phrase = _told_topic(last, skip)
    praised = listening_cues.COMPLIMENT.search(text)
    if praised and (not topic or phrase or listening_cues.COMPLIMENT.search(topic) or topic in praised.group()) \
            or (not asking and lexicon.praises_the_agent(text, own_names)):
        return Understanding("compliment")
    if APOLOGY.search(text) or lexicon.apologises(text):
        return Understanding("apology")
    if all(greetings.greets_only(s, own_names) for s in sentences):  # 'あけおめ！ことよろ〜': greetings, each
        return Understanding("greeting")
    mood = _mood(last) or (_mood(body) if last == body else "")
    body = last
    clause = said_back(body, topic, phrase)
    if tense.ahead(body) and not (listening_cues.HEARSAY.search(body) or morphemes.heard_from_others(body)):  # heard of
        return Understanding("plan", topic=topic, mood=mood, phrase=phrase, clause=clause, decided=tense.settled(text))
    if _felt(body) and (not topic or phrase or mood):
        return Understanding("feeling", topic=topic, mood=mood, phrase=phrase, clause=clause)
    predicate = noun_said(body, topic) if clause.endswith(listening_cues.NOUN_LINK) and not phrase else ""
    if topic and (mood or not phrase or tense.past(body)):
        return Understanding("news", topic=topic, mood=mood, phrase=phrase, clause=clause, predicate=predicate)
    return Understanding("statement", topic=topic, mood=mood, phrase=phrase, clause=clause, predicate=predicate)
