"""The analyzer's part-of-speech names (UniDic's, as fugashi reports them) and the nouns that name no topic."""

from __future__ import annotations

from karakuri_agent.patterns import lazy

# UniDic's first-level parts of speech, by the coarse kind reading/morphemes.py gives them.
POS = {
    "名詞": "noun", "代名詞": "pronoun", "動詞": "verb", "形容詞": "adjective", "形状詞": "adjectival",
    "副詞": "adverb", "連体詞": "adnominal", "接続詞": "conjunction", "感動詞": "interjection",
    "助詞": "particle", "助動詞": "auxiliary", "接頭辞": "prefix", "接尾辞": "suffix",
    "補助記号": "symbol", "記号": "symbol", "空白": "space",
}

# UniDic reads Kansai's copula や ('来週からやで', '雨やねん') as 嫌 (dislike); after a noun, a particle or
# an inflected word it is だ. At a line's start ('やだ', 'や、やめて') it stays 嫌.
KANSAI_COPULA_MISREAD = ("や", "嫌")
COPULA = "だ"
COPULA_PAST = "だった"  # a noun said back as what was: 'カレーだった'
POLITE_COPULA = "です"
TOLD_AS_DONE = ("た", "だ", "てる", "でる", "ている", "でいる")  # a clause said back: what happened, or is going on
COPULA_ENDINGS = frozenset({"だ", "だっ", "です", "でし", "な", "じゃ"})  # the copula as a sentence ends on it
NOT_A_CLAUSE_START = frozenset({"particle", "auxiliary", "suffix", "prefix", "symbol"})  # a clause cut mid-phrase
# Tohoku voices a verb's or an adjective's か-row kana ('亡ぐなった', '行ぐべ', '大ぎい'): read unvoiced where only so
# the analyzer finds the word (reading/normalised.py).
TOHOKU_VOICED = {"ぎ": "き", "ぐ": "く", "げ": "け"}
KANJI_LETTER = r"[一-龥]"
TOHOKU_DOGO, STANDARD_DOKO = r"どご(?=[さにでがへのま？?]|$)", "どこ"  # Tohoku's voiced where: 'どごさ行ぐの？'
KANSAI_COPULA = "や"  # closing a line after a noun ('三連敗や'), where the analyzer sees a particle
COPULA_AFTER = frozenset({"noun", "particle", "auxiliary", "verb", "adjective", "suffix", "pronoun"})

# Second-level tags that matter: a proper noun, a number, a noun used as an adverb (来週, 今日).
PROPER = "固有名詞"
NUMBER = "数詞"
COUNTER = "助数詞"  # as in 助数詞可能 ("回" of 一回) and the suffix 助数詞 ("つ" of 三つ)
NUMERALS = "一二三四五六七八九十百千0123456789０１２３４５６７８９"  # a count written as one word starts so (一度)
# Counters of how often: a number of times is never a thing said back (一回, 二度); a score, a rank or a
# number of things may be the news itself (100点, 一位, 三人で), and stays.
FREQUENCY_COUNTERS = frozenset({"回", "度", "遍"})
# How many things ('猫が三匹', '二十分も'): a count, not what was told; a score or a rank ('100点', '一位') is.
AMOUNT_COUNTERS = frozenset({"匹", "頭", "羽", "本", "個", "枚", "冊", "台", "杯", "軒", "分", "秒", "時間", "週間"})
ADVERBIAL = "副詞可能"
# A bound verb or noun (いる in 見ている, こと): part of a phrase, never its point.
BOUND = "非自立可能"
# A suffix that makes a noun ('パン屋', 'お母さん'): it stays with the noun before it.
NOUN_SUFFIX = "名詞的"

# Nouns that say when, how much or "thing": never what a line is about.
NOT_TOPICS = frozenset({
    "半分", "全部", "大半", "一部", "全員",  # how much of it, not what ('荷物まだ半分も詰められてへん')
    "今日", "昨日", "明日", "あした", "きのう", "今朝", "今夜", "今晩", "最近", "今度", "この前", "先週", "来週",
    "再来週", "今週", "週末", "来月", "先月", "今月", "毎日", "いつも", "さっき", "あと", "後", "前", "今", "いま",
    "こと", "もの", "もん", "の", "ん", "ところ", "とこ", "ため", "感じ", "方", "ほう", "時", "とき", "日", "頃",
    "ころ", "話", "みんな", "皆", "自分", "一緒", "ちょっと", "本当", "ほんと", "何", "なに", "なん", "どこ", "誰",
    "だれ", "いつ", "どっち", "どちら", "これ", "それ", "あれ", "ここ", "そこ", "あそこ", "派", "気", "人", "ぶり",
    "久しぶり", "大丈夫", "好き", "嫌い", "楽しみ", "ありがとう", "よう", "予定", "つもり", "はず", "わけ", "まま",
    "みたい", "中", "うち", "私", "わたし", "僕", "ぼく", "俺", "おれ", "あたし", "君", "きみ", "あなた", "今年",
    "去年", "来年", "朝", "昼", "夜", "夕方", "午後", "午前", "次", "前回", "以前", "土曜", "日曜", "月曜", "火曜",
    "水曜", "木曜", "金曜", "週", "月", "年", "分", "時間", "途中", "なか", "ここ", "とこ", "感", "系", "顔",
    "大成功", "成功", "こないだ", "この間", "ほんま", "実", "ちなみ", "やつ", "先日", "先ほど", "さっきの", "まじ", "マジ", "ほんとう", "見頃", "様子", "最高", "最悪", "残念", "大変", "準備", "件", "お前", "今朝",
})

# The case particles a noun comes before ('はが' is 歯が): a kana before one is no particle itself.
CASE_PARTICLES = frozenset({"が", "を"})
KANA = lazy(r"[ぁ-ゖ]")
KANA_WORD = lazy(r"[ぁ-ゖー〜…。、]+")  # a word in hiragana alone (its marks too)
# A word written in hiragana alone, and the distance from a hiragana to its katakana in Unicode ('か' → 'カ').
HIRAGANA_ONLY = lazy(r"[ぁ-ゖー]+")
KATAKANA_ONLY = lazy(r"[ァ-ヶー]+")
TO_KATAKANA = ord("ァ") - ord("ぁ")
KATAKANA_LETTER = lazy(r"[ァ-ヶ]")
# A case particle a spaced phrase may end with ('かぶとむしを'): not part of the word.
PHRASE_PARTICLES = frozenset({"を", "が", "に", "と", "は", "も", "で", "へ", "の"})

# What turns the word before it: 'ない' of 眠れない, 'ず', 'ん' of 行かん, 'へん' of 行かへん.
NEGATIONS = frozenset({"ない", "無い", "ぬ", "ず", "ん", "へん", "ひん"})
# A negation followed by these makes a must, no negation ('スピーチせんといかん', '行かなければならない').
OBLIGING_LINKS = frozenset({"と", "ば", "きゃ", "ちゃ", "にゃ", "と、"})
OBLIGING = frozenset({"行く", "いける", "行ける", "成る", "なる", "駄目", "だめ", "ダメ", "明く", "あかん"})
# Particles a negation still turns the word across ('大丈夫じゃない', '楽しくはない', '眠れてない').
NEGATION_TRANSPARENT = frozenset({"は", "も", "じゃ", "て", "で"})
# What a sentence may end with after its last word ('…笑。', 'w！'): left off before its end is read.
SENTENCE_END_MARKS = "。！!？?…〜ー 　"
# The marks that end a sentence for certain (a '…' or a '〜' may trail mid-sentence).
FULL_STOPS = "。！!？?"
# ... and a thought, for a clause said back ('財布落としてもうてん…免許証も入っとったのに').
THOUGHT_ENDS = FULL_STOPS + "…"
# 'こと', 'よう' before 'になる' ('結婚することになった'): the verb before them is what happened.
FORMAL_NOUNS = frozenset({"事", "こと", "様", "よう"})
# Auxiliaries of the polite style: they end a sentence, never a clause that says which thing ('フラれました笑').
POLITE = frozenset({"ます", "です"})
# A laugh typed after a predicate ('フラれました笑'), read as a noun: no thing.
LAUGHS = frozenset({"笑", "笑い"})
# The passive auxiliary's dictionary forms ('食べられた', '外された').
PASSIVES = frozenset({"れる", "られる"})

# The past auxiliary ('食べられ+た'): a passive in the past tells what was done to one.
PAST = "た"
# Kansai's past told ("パクられ+てん", "行って+ん"): a past, not a negation.
PAST_TOLD = frozenset({"てん", "でん"})
CONDITIONAL = frozenset({"たら", "だら"})  # the past auxiliary as "if" ('落ちたら'): nothing has happened
# A word in its hypothetical form ('困っ+たら', 'すれ+ば', '風邪+なら') ends a condition: nothing in it happened.
HYPOTHETICAL_FORM = "仮定形"
# '晴れる+と+いい', '治れ+ば+いい': a hope, which trailing off in けど is a worry ('…といいんだけど').
HOPE_LINKS = frozenset({"と", "ば"})
GOOD = "良い"
# The particle a helping verb follows ('食べ+て+しまう', '読ん+で+みる').
TE_LINKS = frozenset({"て", "で"})
# 'なる' after a negation: a change ('行けなくなった' calls a plan off), not a thing failed.
BECOMING = frozenset({"成る", "なる"})
# UniDic's mark of a sound-changed stem ('置い', '行っ', '読ん'): it takes only て or た after it.
EUPHONIC = "音便"
# UniDic's form of an adjective leading a verb ('うまく' of うまくいく): the verb's negation is its own.
ADVERBIAL_FORM = "連用形"
# Nouns that stand for a thing only in form ('辛いもの', '読むこと'): no content of their own.
FORMAL_NOUNS = frozenset({"もの", "物", "こと", "事", "ところ", "の"})
# Nouns a clause before them makes into a time, a reason or a way, no thing ('行ったほうがいい', '疲れたときは',
# '転んだせいで', '開くことができた'): the clause is the line's own predicate, not which thing it is.
CLAUSE_NOUNS = FORMAL_NOUNS | frozenset({"ほう", "方", "とき", "時", "はず", "筈", "せい", "ため", "為", "つもり", "ついで",
                                         "まま", "うち", "前", "後", "あと", "わけ", "訳", "度", "たび", "場合", "最中", "途端",
                                         "けん",  # Hakata's から, read as a noun ('入院したけん、')
                                         "そう", "よう", "みたい"})  # hearsay, likeness ('畳まれるそうです')
# The ending an adjective's stem drops ('辛い' → '辛', found in '激辛').
ADJECTIVE_ENDING = "い"
# Particles that concede what came before ('ミスしたけど、弾けた'): what follows is what is said.
CONCESSIVE = frozenset({"けど", "けれど", "けども", "けれども", "だけど"})
# What one thought, quoted ('なくしたと思ってた鍵'): the clause before と 思う is a belief, not what happened.
QUOTE_TO = "と"
THINKING = frozenset({"思う", "思い込む", "信じる"})
# 'の' + 'に' after a predicate concedes a premise ('3年付き合ってたのに、電話一本でおわり'): what follows is said.
CONCESSIVE_NO = ("の", "に")
# The copula before 'のに' as the analyzer may leave it, a particle ('雨やのに', '雨なのに').
COPULAS = frozenset({"な", "や"})
# Nouns that turn the noun before them ('赤点回避', '心配なし', '苦手克服'): the trouble named is averted.
AVERTING = frozenset({"回避", "無し", "なし", "克服", "脱出", "解消"})  # as lemmas and as written

# -- a yes/no question's own predicate, said back in the answer (reading/question_kinds.predicate) --------
# What closes a question after its predicate ('…する？', '…たん？', '…かな？', '…やと？').
ASKING_TAILS = frozenset({"か", "の", "かな", "かね", "ね", "よ", "な", "っけ", "かい", "ん", "と", "わ",
                          "です", "が"})  # 'のめるんですか', Tohoku 'あるが？'
# Particles a predicate runs on through after a verb ('作っ+たり+も+する', '空い+て+る').
PREDICATE_LINKS = frozenset({"て", "で", "たり", "だり", "も", "は"})
# '連れてったほう+が+いい': the advice form, said back whole.
ADVICE_NOUN, ADVICE_PARTICLE = "方", "が"
# 'Xか、Yか', 'Xかい、Yかい' and 'Xにするか、Yにするか': the particles that list an option, and the verb of
# choosing after 'に' (reading/choices.py).
OPTION_PARTICLES, CHOOSING, CHOSEN_AS = frozenset({"か", "かい"}), "する", "に"
ADVICE_FORM = "ほうがいい"  # asking advice ('病院連れてったほうがいいかな？'): no worry for the agent
# Words a question asks a favour or speaks politely with: said back they would not be the agent's ('来てくれる').
NOT_SAID_BACK = frozenset({"呉れる", "くれる", "貰える", "もらえる", "下さる", "頂ける", "ます", "です", "あげる",
                           "知る", "分かる", "判る",  # nor a knowledge claim ('知ってる？' is not known)
                           "信ずる", "信じる",  # '信じられる？' asks for surprise, not belief
                           "宜しい"})  # 'よろしいでしょうか' asks leave, in a register it does not answer in
PERMISSION = ("も", "良い")  # 'して+も+いい？': leave asked
# A favour asked: a verb's て, then one of these ('返して+もらえる？', '手伝って+くれない？'); the verbs that ask
# for words instead ('教えていただけますか') ask to be told, which no 'いいよ' answers.
FAVOUR_VERBS = frozenset({"貰う", "もらう", "呉れる", "くれる", "頂く", "いただく", "下さる", "くださる"})
TELLING_VERBS = frozenset({"教える", "聞かせる", "話す", "言う"})
# Question words by UniDic lemma (何, どこ, いつ, 誰, どっち/どちら, どれ, どう, どんな, いくら, どない, なぜ); one
# followed by か or も is indefinite ('何か', 'どこも', 'どうにも'), no question word.
INTERROGATIVES = frozenset({"何", "何処", "何時", "誰", "何方", "何れ", "どう", "どんな", "幾ら", "幾", "どない", "何故", "如何"})
INDEFINITE_AFTER = ("か", "も", "でも", "にも", "にか", "せ")
TELLING_OF = ("って", "は", "て")  # after a name: the line tells of that one ('ニケちゃんって本好きだよね')
AGREEMENT_SOUGHT = ("よね", "よな", "よねえ", "よねー", "よなあ")  # a statement ending so asks only for a nod
# A thing given said humbly: お + one of these + いたす / する ('地図の写しをお分けいたしますよ'), or 差し上げる.
HUMBLE_PREFIX = "御"
HUMBLY_GIVEN = frozenset({"分ける", "渡す", "譲る", "貸す", "届ける", "持つ"})
HUMBLE_DOING = frozenset({"致す", "為る"})
HUMBLE_GIVING = "差し上げる"
HUMBLE_ENDS = frozenset({"ます", "う", "か", "よ", "ね", "わ"})  # what may follow it: said now, not quoted or supposed
# The speaker wondering about their own matter, at a line's end ('やっていけるかしらねえ', 'ボケたんかのう', 'のりかえ
# できるか ふあん'): with what they may not manage, or a bad thing, a worry told; no question for the listener.
SELF_WONDERING = ("かしら", "かしらね", "かしらねえ", "かのう", "かのぅ", "かいな", "かなあ", "かなぁ", "やろか", "じゃろか",
                  "か不安", "かふあん", "か心配", "かしんぱい")
MANAGING = frozenset({"出来る", "間に合う"})
# Coming allowed, which asks one along ('たべにきていいよ', '手ぶらで来ればいいがらな', 'いつでも来たらええ'): a verb
# of coming, one of these links (も may follow), then 良い.
ALLOWING_LINKS = ("て", "で", "ば", "たら")
GOOD_LEMMA = "良い"
EVEN = "も"
# 'どう？' after how a thing is ('あのラーメン屋、評判どう？', '明日の天気どう？') asks of the thing, no invitation.
NOT_AFTER_A_STATE = r"(?<!評判)(?<!具合)(?<!様子)(?<!天気)"
# Asked whether a thing of theirs looks odd ('この髪色、変じゃない？', 'どう？おかしくない？'): reassurance sought,
# met as a thing shown is (admired), never with a bare 'うん！' that agrees it is odd.
ODD_ASKED = ("変じゃない", "へんじゃない", "変やない", "変ちゃう", "変じゃね", "変ちゃうか", "おかしくない", "おかしない",
             "変かな", "へんかな", "変かなあ", "変やろか", "おかしいかな", "変じゃないかな", "へんじゃないかな",
             "おかしくないかな", "変じゃないかなあ")
NO_KIND_OF_PLACE = frozenset({"所", "とこ", "ところ", "場所"})  # where, of no kind: never a place of the town named
PLACE_TOPIC_MARKS = ("って", "は", "、")  # what a question about a place is about ends before one of these
FROM = "から"  # the particle 'from', which starts as the indefinite か does ('どっから')
# 'その髪飾り、似合ってるね': what suits someone, said of the one spoken to when nobody else is named.
SUITS = frozenset({"似合う", "似合い", "お似合い"})
# A common noun of things (UniDic 普通名詞-一般: 席, 図書館), not a time (今日, 夕方 are 副詞可能).
COMMON_NOUN = ("普通名詞", "一般")
# 'なんて' before a verb asks what is said ('なんて締めたらいい？'); before a noun it is 'such as' ('雨なんて').
SAYING_WHAT = frozenset({"なんて", "何て", "なんと", "何と"})
# A leave asked ('座ってもよろしいでしょうか', '一部頂戴してもいい？'): a verb's て, then も, then one of these.
LEAVE_WORDS = frozenset({"良い", "宜しい", "構う", "大丈夫", "オッケー", "OK"})
# A question asking only to be heard ("ねえねえ、知ってる？", "聞いて？"): what follows it is what is told.
ASKED_TO_HEAR = frozenset({"知る", "聞く", "聴く"})
# A dialect's 'ておる' ('外出+とった', '寝+よる'): no predicate of its own to say back.
NOT_A_PREDICATE_START = frozenset({"取る", "とる", "おる", "居る", "よる"})
# What a question may be about and still be the agent's to answer ('明日って空いてる？').
TIME_TOPICS = frozenset({"今日", "明日", "あした", "昨日", "きのう", "今", "いま", "最近", "さっき", "今夜", "今晩",
                         "週末", "来週", "夜", "朝", "昼", "午後", "午前", "休み"})
TOPIC_PARTICLES = frozenset({"は", "が", "って", "も"})
# A place named first ('たい焼き屋、まだやってるん？'): the question is the place's, however it is marked.
PLACE_ENDINGS = ("屋", "店", "館", "駅", "場", "園", "所", "院", "署", "局", "湯", "堂", "停")
TOPIC_COMMA = ("、", ",", "，")
VOLITIONAL_FORM = "意志推量形"
IMPERATIVE_FORM = "命令形"
TALKING = frozenset({"話す", "喋る", "しゃべる", "お喋り", "おしゃべり", "話"})  # warmth about talking together
# A verb said as done, by how it conjugates (the analyzer's conjugation type): its last letter and the
# past that takes its place ('食べる' → '食べた', '飲む' → '飲んだ', '買う' → '買った'); '行く' is '行った'.
PAST_BY_CONJUGATION = (("五段-カ行", "く", "いた"), ("五段-ガ行", "ぐ", "いだ"), ("五段-サ行", "す", "した"),
                       ("五段-タ行", "つ", "った"), ("五段-ナ行", "ぬ", "んだ"), ("五段-バ行", "ぶ", "んだ"),
                       ("五段-マ行", "む", "んだ"), ("五段-ラ行", "る", "った"), ("五段-ワア行", "う", "った"),
                       ("上一段", "る", "た"), ("下一段", "る", "た"), ("カ行変格", "る", "た"), ("サ行変格", "する", "した"))
# A verb's stem before たい, by how it conjugates ('行く' → '行き', '食べる' → '食べ', '散歩する' → '散歩し').
STEM_BY_CONJUGATION = (("五段-カ行", "く", "き"), ("五段-ガ行", "ぐ", "ぎ"), ("五段-サ行", "す", "し"),
                       ("五段-タ行", "つ", "ち"), ("五段-ナ行", "ぬ", "に"), ("五段-バ行", "ぶ", "び"),
                       ("五段-マ行", "む", "み"), ("五段-ラ行", "る", "り"), ("五段-ワア行", "う", "い"),
                       ("上一段", "る", ""), ("下一段", "る", ""), ("サ行変格", "する", "し"))
# An invitation joined, said as wanted: coming to the one inviting is going ('来ない？' → '行きたい'), trying is
# wanting to try ('やってみない？' → 'やってみたい').
# The kanji a word starts with ('帰らへん' → '帰').
LEADING_KANJI = lazy(r"[\u4e00-\u9fff々]+")
WANTING, TRIED_WANTED, DONE_WANTED = "たい", "みたい", "したい"
GOING, GOING_WANTED, GOING_TRIED, TRYING = "行く", "行きたい", "行ってみたい", frozenset({"見る", "みる"})
COMING_LEMMAS = frozenset({"来る", "いらっしゃる", "おいでる", "出でる"})  # 'おいでや': お + 出でる
HONORIFIC_COMING = frozenset({"越す"})  # after お: 'お越しください'
DOING_CONJUGATION = "サ行変格"
# What a line that only says which detail of a plan may say besides it ('7時でいい？', '延期でよくない？', '1時に
# してもええ？', '木曜いける？', '第三土曜の間違いでした').
DETAIL_PREDICATES = frozenset({"良い", "いい", "好い", "宜しい", "よい", "ええ", "行ける", "いける", "為る", "成る", "有る", "御座る"})
APOLOGISING = frozenset({"済む"})  # 'すみません': its negation is the apology itself
# A line taken back as sent by mistake ('今のなし！間違えて送信しちゃいました', 'ありゃわしの勘違いじゃった').
MISTAKEN = ("間違", "まちが", "勘違", "かんちが")
# What links a reason to what follows, after a predicate ('来るがら', '忘れたけん', '忙しいから', '足りそうなので').
REASON_LINKS = frozenset({"から", "がら", "けん", "けえ", "ので", "で", "さかい", "し"})
ONGOING_CONTRACTED = "てる"  # the contracted ている ('見て+て+くれない？'), as the analyzer gives its lemma
# Hakata's and Hiroshima's てやる after a verb ('入れちゃろうか', '教えちゃる'): done for one, an offer.
BENEFACTIVE_CONTRACTED = ("ちゃろ", "ちゃる")
GOING_PAST = ("行く", "行った")  # 'けろ', 'なさい', '持ってげ': told to do
# The particles that quote what was thought or said ('切ろうかなって'): a line ending in one asks nothing.
QUOTING = frozenset({"って", "たって"})
# Letters a laugh is typed in ('消えたｗｗ', '負けた笑'): the analyzer calls them nouns, they are no thing.
LAUGH_LETTERS = frozenset("wWｗＷ笑草")
# A lemma as a person writes the verb ('しよう' → する, not the dictionary's 為る).
PLAIN_SPELLING = {"為る": "する", "成る": "なる", "居る": "いる", "有る": "ある", "遣る": "やる"}
PLAIN_FORMS = ("終止形", "連体形")  # an explanatory 'ん' follows these ('弾けるん？'); after 未然形 it negates
# Verbs that only carry what comes before them ("苦手でございます", "元気であります"): no predicate of their own.
COPULA_VERBS = frozenset({"御座る", "有る", "居る"})
COPULA_LEMMAS = frozenset({"だ", "です", "や", "じゃ"})  # the copula as the analyzer gives its lemma
# The copula's guess after a verb ('もつやろか', 'もつだろうか'): it offers nothing (Hakata's 'ちゃろう' does).
GUESSING_COPULAS = frozenset({"やろ", "だろ", "だろう", "でしょ", "でしょう", "じゃろ", "じゃろう"})
ATTRIBUTIVE = "連体形"  # the form that modifies a noun ("へんな形"): no predicate
ADJECTIVAL_NOUN = "形状詞可能"  # a noun that says how a thing is ('平気', '無理'): it ends a compound
AUX_STEM = "助動詞語幹"  # そう of '変わるそう(です)' (hearsay, a noun to UniDic) and of 'おいしそう' (looks)
# Someone named quoted ('…って先生がいうんだよ'): the quote, who said it (が), the verb of saying.
QUOTING, SUBJECT_MARK, SAYING = frozenset({"って", "と", "て"}), "が", frozenset({"言う"})
HEARSAY_WORDS = frozenset({"そう", "らしい"})  # after a plain form: what one heard ('変わるそうじゃ', '継ぐらしい')
IRREALIS = "未然形"  # the form a negation follows ('行か' of 行かん, 'し' of しない)
# An adjective said back without the negation of the question ('こわく+なかった？' → 'こわかった').
ADJECTIVE_ADVERBIAL_END, ADJECTIVE_PAST_END, ADJECTIVE_END = "く", "かった", "い"



def has_hiragana(word: str) -> bool:
    """Hiragana in a word ('生まれ'): a noun so written is often a verb the analyzer cut short."""
    return any("ぁ" <= c <= "ゖ" for c in word)


# Nouns that point at a thing without naming it ('例のやつ', 'アレの結果'): a line with only these names nothing.
# A question with these asks to be heard ('昨日の件、聞いてくれる？'): the speaker has something to tell.
LISTENING_VERBS = frozenset({"聞く", "聴く"})
VAGUE_REFERENTS = frozenset({"例", "アレ", "あれ", "やつ", "ヤツ", "件", "結果", "おかげさま", "おかげ", "ダメ", "だめ",
                             "無事", "結局", "ついに", "とうとう", "とこ", "ところ", "こと",
                             # how it came out, or when: no new thing ('きのうの、なんとかおわった　手応えよくわからんw')
                             "手応え", "感触", "なんとか", "何とか", "昨日", "きのう", "夜中", "結構"})


# Achieving, read from the verb's form ('やっと買えた', '最後まで走りきった', 'また歩けるようになった'):
# a five-row verb conjugated as one-row is its potential (買う → 買え); 切る after a verb is doing it through.
GODAN_ENDINGS = frozenset("うくぐすつぬぶむ")
ONE_ROW = "下一段"
# A one-row verb's られ (付け+られ+た) is its potential as well as its passive: passive only with who did it (に).
ONE_ROWS, RARE, AGENT_MARK = ("下一段", "上一段"), "られ", "に"
POTENTIAL_RU = "れ"  # 走る → 走れ
RU = "る"
THROUGH = frozenset({"切る"})
AT_LAST = frozenset({"やっと", "ようやく", "ようやっと"})  # waited for: ついに, とうとう come before bad things too

# A noun's event told by a verb that only carries it (ミスする, 風邪をひく, 事故に遭う): the verb's negation
# turns the noun ('ミスしなかった' is no mistake). Lemmas as UniDic gives them; the particles between.
SUPPORT_VERBS = frozenset({"為る", "する", "引く", "遭う", "会う", "罹る", "成る", "起こる", "起きる", "出る"})
NOUN_TO_VERB = frozenset({"が", "を", "に", "は", "も"})
# Adverbs that take a negation, said or left unsaid ('あんまり…', '全然'): an answer ending on one says no.
NEGATIVE_ADVERBS = frozenset({"余り", "全然", "全く", "大して", "ちっとも"})
# The particles that mark where one goes ('実家に帰る', '海へ行く').
GOING_TO = frozenset({"に", "へ"})

# Question words in hiragana ('なんいろ あるの？', 'だれと いったの'): a phrase starting so asks, it names no thing.
ASKING_KANA = ("なん", "なに", "どこ", "だれ", "いつ", "どの", "どれ", "どう", "いくつ", "いくら", "どっち")
LONG_VOWEL = "ー"  # the long-vowel mark: a word ending in it ends on the sound before it
# Asking whether there is one ('本屋ってあったっけ？', '郵便局はございましたでしょうか'): the verbs of being there.
EXISTING = frozenset({"有る", "御座る"})
# Words after a verb that only guess or pass on what was heard ('色々あったみたい', 'なに入るんやろ'): nothing told as so.
GUESSING = frozenset({"みたい", "らしい", "かも", "かもしれない"})
# A thing asked whether there is, honoured ('歯医者さんは').
HONORIFIC_SUFFIXES = ("さん", "様")
# Times a clause before may make a time of a kind ('眠れない夜', '寒い日', '疲れた時').
TIMES_OF_A_KIND = frozenset({"夜", "晩", "日", "朝", "時", "夕方", "休日"})
ABSENT = frozenset({"無い", "ない"})  # '美容院ない？': whether there is, asked as whether there is not
# Being or going somewhere, asked in the past ('駅の方にいなかった？', '図書館行ってた？'): answered from the day.
BEING_THERE = frozenset({"居る", "いる", "行く", "寄る", "おる", "来る"})
