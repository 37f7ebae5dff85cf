"""Splitting a line into sentences: the one splitter the readers share.

A sentence ends at 。！？ (or their ASCII forms), taking any run of them and
the closing brackets after them along; a line break ends one too.
"""

from __future__ import annotations

import re

SENTENCE = re.compile(r"[^。！？!?\n]*(?:[。！？!?]+[」』）)]*|$)")


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, stripped, none empty: 'うん！本が好き。' -> ['うん！', '本が好き。']."""
    return [s.strip() for s in SENTENCE.findall(text) if s.strip()]


# A sentence asks without a question mark when it ends in a polite question ('ですか。', 'でしょうか'),
# or, naming a question word, in a plain or dialect ending ('どこ行くの', 'どげな子じゃったんかね').
POLITE_ASKING_END = re.compile(r"(?:(?:ですか|ますか|でしょうか|ませんか|ましたか|でしたか|ませんでしたか)(?:ね|ねえ|ねぇ)?|のか|べか|だべか)$")  # 'ありますかね'
# '好きかの', 'あるかね', '行ったんかい', 'あるのかい', '寝とるんか': a predicate, then か and a closing
# particle (not '静かね'), or 'んか' alone.
DIALECT_ASKING_END = re.compile(r"(?:[るたんいだの]|好き|嫌い|平気)か(?:の|ね|い|のう)$|[るたいだ]んか$"
                                r"|(?:元気|平気|大丈夫|ほんま|本当|ほんと)か$")
PLAIN_ASKING_END = re.compile(r"(?:の|(?<!ませ)ん|と|なん|や|ね|か|かい|だい|なに|何|どこ|いつ|だれ|誰|どれ|どう|どっち|どちら)$")
QUESTION_WORD = re.compile(r"(?:何|なに|なん[のでだ]?|どこ|いつ|誰|だれ|だあれ|だーれ|どれ|どちら|どっち)(?![かもでと])|なんで|何で"
                           r"|どう(?!ぞ|も|にも|にか|せ)|どの|どんな|どげ|どさ|なぜ|いくつ|いくら")
# 'どう謝ったらええかわからん', 'いつ来るか知らない': a question word inside a clause the sentence says it does not
# know; it tells, it does not ask (unless a question mark says so).
NOT_KNOWING_END = re.compile(r"(?:わから|分から|判ら|知ら)(?:ない|ん|へん|ひん|ねえ|ねー|なか|んくて)(?:わ|や|よ|ね|し|けど)?$")
TRAILING_MARKS = "。．.！!〜~ー…・ｗw笑 \u3000"
# '第一志望なんだよね', '暇なんだけど', '好きなんやけど': after a word, the copula's な and the explaining ん
# (のだ) telling, then a particle that asserts; not the question word 何 ('これ、なんだ？', '名前なんだっけ').
EXPLAINING = re.compile(r"(?<=[^\s、。！？!?「」])なん(?=だよ|だね|だけ|だから|だし|です[よねけが]|や[けねでし]|やん(?!か)|よ(?![？?]))")


WHETHER = "かどうか"


# Asked to tell ('今日のハイライト教えて〜', 'ハマってるのあったら教えて', '話聞かせてよ'): a question.
TELL_ME_END = re.compile(r"(?:教えて|おしえて|聞かせて|きかせて)(?:よ|ね|な|や|ください|下さい|ちょうだい|ほしい|欲しい|くれ|くれん|もらえる)?$")


# Advice wondered aloud to the listener ('やっぱやめたほうがいいかな'): a question.
ADVICE_ASKED = re.compile(r"(?:ほう|方)が(?:いい|良い|ええ|よか)")
ADVICE_ASKING_END = re.compile(ADVICE_ASKED.pattern + r"(?:ん)?(?:かな|かなあ|かね|かしら|やろか|やろうか|と思う)$")


def is_asking(sentence: str) -> bool:
    """A sentence asks something: a question mark (full-width or ASCII), a polite or dialect question
    ending ('お過ごしでしたか。'), or a question word with a plain ending ('今日どこ行っとったん')."""
    if "？" in sentence or "?" in sentence:
        return True
    body = "".join(ch for ch in sentence if not _emoji(ch)).rstrip(TRAILING_MARKS)
    if POLITE_ASKING_END.search(body) or DIALECT_ASKING_END.search(body) or TELL_ME_END.search(body) \
            or ADVICE_ASKING_END.search(body):
        return True  # '今日のハイライト教えて〜': asked to tell is asked; 'やめたほうがいいかな', advice
    asked = without_explaining(body.replace(WHETHER, ""))  # '行くかどうか迷う': 'whether' asks no one
    return bool(PLAIN_ASKING_END.search(body) and QUESTION_WORD.search(asked) and not NOT_KNOWING_END.search(body))


def the_question(asking: list[str]) -> str:
    """Which of a line's asking sentences is its question: the last, unless that only asks to be told and
    one before asks with a question word ('すきな作家だれ？おすすめおしえて' asks who)."""
    last = asking[-1]
    if TELL_ME_END.search(last.rstrip(TRAILING_MARKS)):
        return next((s for s in reversed(asking[:-1]) if QUESTION_WORD.search(without_explaining(s))), last)
    return last


def without_explaining(text: str) -> str:
    """``text`` with an explaining 'なん' written 'なの' (the same length), so that no question word is
    found in it: '試合なんだよね' tells, it does not ask what."""
    return EXPLAINING.sub("なの", text)


def asking_with_what_before(sentences: list[str], short: int) -> list[str]:
    """The asking sentences, one up to ``short`` letters with the one before it ('特技みせて〜。なんかある？'
    asks of 特技)."""
    return [sentences[i - 1] + s if i and len(s) <= short else s for i, s in enumerate(sentences) if is_asking(s)]


def _emoji(ch: str) -> bool:
    return ord(ch) >= 0x2600 and not ("\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef")
