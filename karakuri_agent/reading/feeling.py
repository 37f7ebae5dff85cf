"""A line's reading with what the lexicon says of it: how what is told went and feels, and what each
sentence does (reading/lexicon.py's concepts and polarity over the analyzer's words).

reading/hearing.py reads what a line is by its structure; this turns that
reading where the words say more: a told line warm to the agent is warmth,
worry, feeling unwell or tired is a feeling met with care, worry about the
agent in a question is concern for it, bad news with a question that is not
the agent's to answer is the news, and something told laughing is no grief.
"""

from __future__ import annotations

from dataclasses import replace

from karakuri_agent.domain.understanding import CARE, OTHER, TROUBLE, VIEWS, WORLD, Understanding
from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.question_words import OR
from karakuri_agent.ja.sentences import TRAILING_MARKS, is_asking, split_sentences
from karakuri_agent.ja.speech_words import APOLOGY, QUESTION
from karakuri_agent.ja.word_classes import ADVICE_FORM, AGREEMENT_SOUGHT, MANAGING, SELF_WONDERING
from karakuri_agent.reading import greetings, lexicon, morphemes, sentiment, told_of
from karakuri_agent.reading.phrase import potential
from karakuri_agent.reading.question_kinds import asks_a_favour

# Concepts naming someone of the speaker's (うちの犬, 母, 先生): what is told is about them.
OF_THEIRS = frozenset({"kin", "pet", "person_role"})

# What a question worries about the agent's own state for ('顔色わるいよ？', '疲れてない？'); fear asks
# a taste ('雷とか怖くなか？').
CONCERN = frozenset({"unwell", "hurt", "tired"})
# Kinds of line that are about the agent (warmth for it, worry for it, asking it along or offering it
# something); a question is too, unless it asks of someone else.
ABOUT_AGENT = frozenset({"warmth", "compliment", "concern", "cheered", "invitation", "offer"})
# Feelings no laughter lightens.
SERIOUS = frozenset({"grief", "unwell", "worried"})


def with_feeling(heard: Understanding, text: str, own_names: tuple[str, ...], other_names: tuple[str, ...],
                 line: str = "") -> Understanding:
    """The reading with what the lexicon says of it (reading/lexicon.py): how what is told went and feels,
    whom it is warm to, what it points back at, what each sentence does. A told line that is warm to the
    agent is warmth; worry, feeling unwell or tired is a feeling met with care; bad news told with a
    question that is not the agent's to answer is the news (the care comes first)."""
    feeling = sentiment.feel(text)
    if not feeling.polarity and not feeling.emotions and lexicon.marked_sad(line):
        # 'チケット全落ちした😭😭': where the words say nothing of how it went, the mark the line was sent with
        # does (the emoji are gone from ``text``, the normalised line)
        feeling = replace(feeling, polarity=-1, emotions=frozenset({"sad"}), main=-1)
    if _wonders_if_it_goes_well(text, own_names, feeling):
        told_acts = tuple(act for act in _acts(text, own_names) if act != "question")  # wondered, not asked
        return replace(heard, kind="feeling", mood="bad", polarity=-1, emotions=feeling.emotions | {"worried"},
                       question=None, subject="speaker", acts=told_acts or ("bad_news",))
    told_text = _told_part(text, own_names)
    told = sentiment.feel(told_text)
    named = lexicon.tags(morphemes.words(text), text)
    kind, mood = heard.kind, heard.mood
    to_agent = bool(named & {"co_presence", "second_person"}) or any(n and n in text for n in own_names)
    about_others = any(n and n in text for n in other_names)
    told_kinds = ("news", "plan", "statement", "feeling", "remark", "compliment")
    laughing = "laughter" in named and not feeling.emotions & SERIOUS
    asked = heard.kind in ("question", "invitation") or (heard.kind != "offer" and "question" in _acts(text, own_names))
    # advice on the speaker's own matter ('病院連れてったほうがいい？', '物忘れがひどうてね、どうしたもんかねぇ')
    advice = heard.question is not None and (ADVICE_FORM in heard.question.predicate or heard.question.kind == "advice")
    # whose a question's worry is, by the question itself ('うちの米、分けとくがら。んで、体は大丈夫なんだべ？' asks of
    # the agent; 'うちの子、熱出たけど大丈夫かな？' of the asker's own, a worry told)
    asked_named = lexicon.tags(morphemes.words(heard.question.text), heard.question.text) \
        if heard.question is not None else named
    of_the_asker = bool(asked_named & {"first_person", *OF_THEIRS})
    # what troubles the speaker: the part told, or the whole line where one breath asks of their own matter
    own_matter = advice or (of_the_asker and heard.question is not None and heard.question.kind == "yesno")
    troubles = told.emotions if told_text or not own_matter else feeling.emotions
    chooses = heard.question is not None and heard.question.kind == "choice"  # 'アアとイイセキ、どっち？' asks no health
    worried_for = bool(feeling.emotions & CONCERN) or (  # 'ごめん、遅れた。大丈夫？' asks to be forgiven
        bool(listening_cues.ARE_YOU_OK.search(text)) and "apology" not in _acts(text, own_names))
    wished = not about_others and not named & OF_THEIRS and kind in ("statement", "feeling", "news", "plan")
    if wished and listening_cues.CHEERED.search(text):  # 'がんばって！': cheered on, thanked for
        return replace(heard, kind="cheered", mood="", polarity=0, emotions=frozenset(),
                       acts=_acts(text, own_names), subject="agent")
    if wished and listening_cues.WELL_WISHED.search(text):
        # '早く元気になってね': wished well, thanked for; no trouble of the speaker's to meet
        return replace(heard, kind="concern", mood="", polarity=0, emotions=frozenset(),
                       acts=_acts(text, own_names), subject="agent")
    if asked and worried_for and heard.asks != WORLD and not told.emotions & CARE and not of_the_asker \
            and not asks_a_favour(text) \
            and not about_others and not heard.self_topic and not advice and not chooses \
            and not listening_cues.EVER_DONE.search(text):  # '徹夜したことある？' asks what it has done
        # '顔色わるいよ？', '大丈夫？無理してない？': the partner worries about the agent; thanked for it
        return replace(heard, kind="concern", mood="", polarity=feeling.polarity, emotions=feeling.emotions,
                       acts=_acts(text, own_names), subject="agent")
    # agreement sought with no question mark is still told ('ニケさんと話してると、肩の力が抜けるんですよね。')
    sought = kind == "question" and heard.question is not None and heard.question.kind == "yesno" \
        and not QUESTION.search(heard.question.text) and heard.question.text.rstrip(TRAILING_MARKS).endswith(AGREEMENT_SOUGHT)
    # ('ニケちゃんって本好きだよね' tells the agent's taste; 'ニケちゃんはめんこいなあ' is still fondness)
    if (kind in told_kinds or sought) and "warm_feeling" in named and to_agent and not about_others \
            and not feeling.emotions & SERIOUS and not told_of.tells_its_taste(text, own_names):
        kind, mood = "warmth", ""
    elif laughing and kind in told_kinds and mood != "good":
        mood = ""  # '断っちゃった笑', '財布落とした笑': told laughing, no grief to meet ('3キロ減ったw' is still glad)
    elif (kind in told_kinds or (kind == "question" and listening_cues.AGREE_ASKED.search(text))) \
            and "compliment" in named and to_agent and not about_others and not feeling.troubled:
        kind, mood = "compliment", ""  # 'ニケちゃん今日なんかいつもよりかわいくない？' asks no question of it
    elif kind == "question" and listening_cues.AGREE_ASKED.search(text) and told.mood == "good" and not to_agent \
            and heard.question is not None and heard.question.kind == "yesno" and not heard.self_topic:
        kind, mood = "news", "good"  # '3位入ったんだけど、これマジで夢じゃない？': the news, asked to be shared
    elif kind in told_kinds and feeling.emotions & CARE and not to_agent:
        # '明日手術なんだ' is still ahead; '明日面接でさ、緊張してる' is felt now
        felt = any(w.lemma in listening_cues.FEELING or w.surface in listening_cues.FEELING for w in morphemes.words(text))
        kind, mood = ("plan" if kind == "plan" and not felt else "feeling"), "bad"
    elif kind in ("news", "plan", "statement", "feeling", "remark"):
        # 'おもろいこと言うて' asks; it tells nothing good ('やめてよ' still protests)
        mood = "" if feeling.mood == "good" and _requests(text) else feeling.mood
        kind = "news" if kind == "statement" and heard.topic and mood else kind
    elif kind == "question" and troubles & TROUBLE and heard.asks in ("", OTHER) and not heard.self_topic \
            and not (heard.question is not None and any(n and n in heard.question.text for n in own_names)) \
            and (heard.question is None or heard.question.kind not in ("choice", "invite", *VIEWS)
                 or heard.question.kind in VIEWS and bool(troubles & TROUBLE)):
        # a riddle's flood and fire ('上は洪水、下は大火事、これなーんじゃ') or a costly book are no bad news;
        # a goldfish that died before 'どうしたらいい？' is; a trouble no feeling is told of is why one asks
        # ('かさもってる？あめふりそう')
        kind, mood = ("feeling" if troubles & CARE else "news"), "bad"
    # 'うちの犬が', '母が': someone of theirs; what is told is about them, whoever's they are
    subject = "third" if about_others or (named & OF_THEIRS and not _only_whose(morphemes.words(text))) \
        else "agent" if kind in ABOUT_AGENT or (kind == "question" and heard.asks != OTHER) else "speaker"
    return replace(heard, kind=kind, mood=mood, polarity=0 if laughing else feeling.polarity, emotions=feeling.emotions,
                   subject=subject,
                   refers_back="refers_back" in named, acts=_acts(text, own_names))


def _wonders_if_it_goes_well(text: str, own_names: tuple[str, ...], feeling: sentiment.Feeling) -> bool:
    """Whether the line ends wondering about the speaker's own matter ('来月から一人暮らしなのよ。やっていけるかしら
    ねえ', '…ボケたんかのう', 'のりかえ ちゃんと できるか ふあん'): whether they can manage, or a bad thing: a
    worry told, never a question the agent answers 'うん！' to. Not one naming the agent or asking of it, nor
    a line that asked before ('何時までやってんの？…間に合うやろか' asks the hours), nor an apology ('悪かったかいな');
    the か must be the particle, after the clause ('なんか心配' wonders nothing)."""
    sentences = split_sentences(text)
    last = sentences[-1].rstrip(TRAILING_MARKS + listening_cues.QUESTION_MARKS)
    tail = max((t for t in SELF_WONDERING if last.endswith(t)), key=len, default="")
    if not tail or any(n and n in last for n in own_names) or "second_person" in lexicon.named_in(last) \
            or any(is_asking(s) for s in sentences[:-1]) or APOLOGY.search(last):
        return False
    found = morphemes.words(last)
    spans = morphemes.word_spans(found, last)
    at = len(last) - len(tail) + tail.index(OR)
    if not any(start == at and w.pos == "particle" for w, (start, _) in zip(found, spans)):
        return False
    before = [w for w, (start, _) in zip(found, spans) if start < at]
    if not before or before[-1].pos == "pronoun":
        return False  # 'なんか心配': なん + か, an indefinite
    return feeling.polarity < 0 or any(potential(w) or w.lemma in MANAGING for w in before)


def _only_whose(found: tuple[morphemes.Word, ...]) -> bool:
    """Whether someone of theirs is named only as the one a thing the speaker does is for ('犬の散歩中に転んじゃった',
    '母の看病で寝不足'): a doing (a サ変 noun) of theirs is the speaker's; a thing of theirs ('ぱぱの くるま
    あたらしく なった') is still their news."""
    of_theirs = [i for i, w in enumerate(found) if any(c.name in OF_THEIRS for c in
                                                        (*lexicon.by_lemma().get(w.lemma, ()), *lexicon.by_lemma().get(w.surface, ())))]
    return bool(of_theirs) and all(i + 2 < len(found) and found[i + 1].surface == listening_cues.OF
                                   and found[i + 1].pos == "particle" and listening_cues.DOABLE in found[i + 2].detail
                                   for i in of_theirs)


def _told_part(text: str, own_names: tuple[str, ...]) -> str:
    """What the line tells, its questions aside: the sentences that do not ask, and what an asking one
    says before it turns to the agent ('風邪ひいた、ニケちゃんは大丈夫？') or after a pause of '…'
    ('金魚が死んじゃった…どうしたらいい？')."""
    told: list[str] = []
    for sentence in split_sentences(text):
        if not is_asking(sentence):
            if not (APOLOGY.search(sentence) or greetings.greeting(sentence, own_names) or listening_cues.THANKS.search(sentence)):
                told.append(sentence)  # 'さっきはごめんね': an apology or thanks tells no trouble
            continue
        cut = max(sentence.rfind(listening_cues.TRAILING_OFF), 0)
        named = [sentence.find(n) for n in own_names if n and n in sentence]
        you = listening_cues.YOU.search(sentence)
        pointed = listening_cues.POINTED.search(sentence)  # '…3位入ったんだけど、これマジで夢じゃない？'
        cut = max([cut, *named, you.start() if you else 0, pointed.start() if pointed else 0])
        told.append(sentence[:cut])
    return "".join(told)


def _requests(text: str) -> bool:
    """Whether the line ends asking something of the listener: its last word a verb's て (言うて, 見せて),
    save the tails a request takes (てや, てよ, てください, てちょうだい)."""
    found = [w for w in morphemes.words(text) if w.pos != "symbol"]
    while found and (found[-1].lemma in listening_cues.REQUEST_TAILS or found[-1].surface in listening_cues.REQUEST_TAILS):
        found.pop()
    return len(found) >= 2 and found[-1].pos == "particle" and found[-1].surface in listening_cues.REQUEST_TE \
        and found[-2].pos == "verb"


def _acts(text: str, own_names: tuple[str, ...] = ()) -> tuple[str, ...]:
    """What each sentence of ``text`` does, in order: a question, a greeting, thanks, an apology, a farewell,
    or something told (good, bad or plain news)."""
    acts: list[str] = []
    for sentence in split_sentences(text):
        if is_asking(sentence):
            before, _, asked = sentence.rpartition(listening_cues.PAUSE)
            if APOLOGY.search(before) and len(asked) <= listening_cues.SHORT_ASK and acts[-1:] != ["apology"]:
                acts.append("apology")  # '遅ぐなってわりぃな、待ったべ？': sorry first, then a short question
            act = "question"
        elif listening_cues.FAREWELL.search(sentence):
            act = "farewell"
        elif listening_cues.THANKS.search(sentence):
            act = "thanks"
        elif APOLOGY.search(sentence):
            act = "apology"
        elif greetings.greeting(sentence, own_names):
            act = "greeting"
        else:
            said = sentiment.feel(sentence)
            polarity = said.polarity if said.firm else 0  # '神社のほうに救急車とまってた' is plain news
            act = "bad_news" if polarity < 0 else "good_news" if polarity > 0 else "news"
        if not acts or acts[-1] != act:
            acts.append(act)
    return tuple(acts)
