"""How a partner's line tells what it is, in Japanese: the words and forms of news, plans, feelings,
retractions, warmth, offers and farewells, and of questions about the agent's day, plans and the talk.

Cues are dictionary forms (lemmas, as the analyzer gives them) where a word
may be conjugated, and patterns over the line where the form itself tells.
"""

from __future__ import annotations

import re

from karakuri_agent.ja.name_words import HONORIFICS
from karakuri_agent.ja.sentences import QUESTION_WORD
from karakuri_agent.ja.word_classes import AVERTING, NOT_AFTER_A_STATE
from karakuri_agent.patterns import lazy

# A plan: a time ahead, or the words of an intention.
AHEAD = frozenset({"明日", "あした", "明後日", "あさって", "来週", "再来週", "来月", "来年", "今度", "週末", "今週末",
                   "来週末", "今夜", "今晩", "夏休み", "冬休み", "連休", "そのうち", "次", "これから", "午後"})
# A thing pointed at as what a question asks of ('これマジで夢じゃない？', 'それって将来役に立つ？').
POINTED = lazy(r"(?:^|[、。！!？?\s])(?:これ|それ|あれ|こいつ|そいつ)(?:って|は|が|も|マジで|まじで|ほんとに|、)")
# Which of a kind one would be, asked ('どうぶつだったらなにになりたい？', '花で言うと何？'): its pick of the kind.
WOULD_BE = lazy(r"(?:だったら|やったら|じゃったら|なら|で言うと|でいうと)、?(?:自分は)?(?:何|なに|なん)(?:に|が|かな)?"
                r"(?:なりたい|なる|いい|[？?]|$)")
# A sentence trailing off in 'けど' after a question ('おこることあんの？そうぞうできないんだけど'): a remark on it.
TRAILING_KEDO = lazy(r"(?:けど|けれど|けども)(?:ね|さ|な|なあ|ねえ)?[。！!…〜ー]*$")
# A time ahead with まで, and a verb going on ('午後まで電車が止まってる'): a state now, no plan.
UNTIL = "まで"
ONGOING = frozenset({"てる", "ている", "居る", "とる", "おる"})
# Words that only say when ('明後日、面接なんだ'): never what a line is about (a holiday, 夏休み, may be).
WHEN_ONLY = frozenset({"明日", "あした", "明後日", "あさって", "来週", "再来週", "来月", "来年", "今度", "週末", "今週末",
                       "来週末", "今夜", "今晩", "午後", "今日", "きょう", "昨日", "きのう"})
# What was decided about a time ahead, said in the past ('来月から異動になりました', '春から転勤が決まった'): a plan.
DECIDED = frozenset({"成る", "決まる", "決定", "確定"})
# 'ことになった': a matter (こと) becoming (成る) settled; and the verbs a noun is done with ('結婚する', '合格できた').
MATTER, TO, BECOME = "事", "に", "成る"
DOING_VERBS = frozenset({"為る", "出来る"})
INTENT = lazy(r"つもり|予定|ようと思|おうと思|ことにした|ことになっ|ことになり|始める|始めるの|しようかな|ようかな|こうかな|たいな|たいんだ"
                    r"|たいと思|計画|行ってくる|してくる")
# Feelings told about oneself ('緊張してる', 'わくわくする').
FEELING = frozenset({"緊張", "楽しみ", "ドキドキ", "どきどき", "わくわく", "ワクワク", "眠い", "ねむい", "暑い", "寒い",
                     "幸せ", "不安", "心配", "退屈", "暇", "ひま", "お腹", "腹", "元気", "ほっと", "嬉しい", "悲しい",
                     "寂しい", "楽しい", "疲れる", "だるい", "憂鬱", "そわそわ", "いらいら", "イライラ"})
# A plan taken back: 'やっぱりやめた', 'なしになった', 'キャンセルした', '行かないことにした'.
RETRACT = lazy(r"やめ(?:た|る|に|とく|とこ|ておく|よう|ちゃ|まし)|止め(?:た|る|に)|中止|キャンセル|cancel|取りやめ|取り消|白紙に"
                     r"|なしに(?:なった|した|する)|なくなっ(?!たら)|延期|ずらす|ずらし|欠席|行かないことに|しないことに|無理に|むりに|ムリに"
                     r"|無理そう|行けなく(?!なったら)|行けん|行かれへん|来れなく(?!なったら)|できなくなった(?!ら)|ダメになった(?!ら)|だめになった(?!ら)"
                     r"|(?:なし|ナシ)(?:で|に|！|!|$)|忘れて(?:くれ|ください|下さい|ね|な(?![いかく])|ほしい|[。！!]*$)|また今度でも|別の日に|にしてくれ|にしてもらえ|に変えて|に変更"
                     r"|じゃなくて.{1,12}にする|ことにした(?:よ|わ)?$", re.IGNORECASE)
# What was said before and is now changed: 'って言ったけど', '言うてた'.
SAID_BEFORE = lazy(r"(?:って|と)(?:言った|言ってた|いった|言うてた|言うた|ゆうた|ゆった|話した)|前に言|さっき言|先ほどの件|さっきの話"
                         r"|(?:先日|この前|前に|さっき)(?:お)?話しした|(?:こないだ|この間|この前)(?:言|ゆ)")
# A plan taken back in a plain negative after やっぱり ('やっぱり どうぶつえん いかない').
# Quitting told as done ('仕事やめたわ', 'タバコ辞めました'): news of one's life, no plan taken back, unless it says
# it takes something back ('やっぱりやめた').
QUIT_DONE = lazy(r"(?:やめ|辞め|止め)(?:た|ました|てん|ちゃった|ちゃいました|てしもた|てもうた)")
TAKEN_BACK_NEG = lazy(r"(?:やっぱ|やはり|結局).*(?:ない|ません|へん|ん)[。！!…〜]*$")
# What a calling off's letters may be, read as words (hearing._calls_off): 話 ('はなしになって') is talk, and
# only a plan's verbs are called off by 'なくなった' ('行けなくなった', not 'うごかなくなった').
NOT_CALLING_OFF = frozenset({"話", "離す", "放す"})
NONE_LEMMA = "無し"
PLAN_VERBS = frozenset({"行く", "来る", "会う", "出来る", "参加", "出る", "出席", "遊ぶ", "帰る", "伺う", "参る", "寄る"})
TAKING_BACK = lazy(r"やっぱ|やはり|結局|さっきの|前に言った|この前言った|言ってた|言うてた|先ほどの件")
# Thanks, compliments, warmth.
THANKS = lazy(r"ありがと|ありがど|有難う|有り難う|助かっ|助かり|助かる|(?<!神に)(?<!神様に)(?<!みんなに)(?<!皆に)感謝|サンキュ|さんきゅ|あざっす|あざーす|恩に着る|おおきに|御礼申し上げ|お礼申し上げ"
              r"|お世話になりました|ありがたい(?:こと|話|わ|ね|な|よ|です|じゃ|や|っす|[。！!]|$)|thank|thx", re.IGNORECASE)
COMPLIMENT = lazy(r"かわいい|可愛い|すごい|凄い|すげー|えらい|偉い|優しい|やさしい|素敵|すてき|上手|物知り|似合"
                        r"|センスいい|頼りになる|さすが|かっこいい|格好いい|天才|面白い|おもしろい|いい人|ええ子|いい子|ええ人")
# Warmth by what the agent did ('ニケちゃんのおかげで'): thanks, where the line thanks too.
THANKS_CAUSE = "おかげ"
# Being with the one spoken to ('あんたといるの楽しいわ', 'きみと話してると落ち着く') is warmth as 一緒にいると is.
WARMTH = lazy(r"(?:話して(?:る|いる)?と|話すと|話せて|(?:一緒|いっしょ)に(?:いる|いて)?と?|(?:一緒|いっしょ)だと|会えて|会うと|いてくれて"
                    r"|(?:あんた|あなた|きみ|君|キミ|お前|おまえ|おめえ|そっち)と(?:いる|おる|居る|いて|おって|過ごす|過ごして"
                    r"|話す|話して(?:る|いる)?|しゃべる|しゃべって(?:る)?|喋って(?:る)?)(?:の|と|ん|時間|とき|時)?(?:って|は|が)?"
                    r"|そばにいると|声(?:を)?聞くと|おしゃべりして(?:る)?と|しゃべって(?:る)?と)"
                    r".{0,8}(?:楽しい|たのしい|嬉しい|うれしい|落ち着く|ほっと|元気|幸せ|安心|好き|癒さ|よかった)"
                    r"|雰囲気.{0,6}(?:いい|良い|最高|好き|素敵|すてき)"
                    r"|(?:大好き|だいすき|好きだよ|会いたかった|仲良く|友達でいて|また話したい|もっと話したい|ありがたい存在"
                    r"|おかげで(?!助か)|(?:^|(?<=[にでもがは、 ]))いてくれて|(?:話し|しゃべっ|喋っ)(?:とる|とったら|てたら|てると|てる|ていると)と?.{0,12}"
                    r"(?:気がする|気分|感じ|楽し|嬉し|うれし|若返|元気|癒|ほっと))")
# A remark on the moment both share, asking to agree ('今日はいい天気だね', '風が気持ちいいね', '人が多いね'):
# the weather, the sky, the season, the crowd, the view, said with ね / な / よね at the end.
REMARK = lazy(r"(?:天気|てんき|晴れ|雨|風|空|雲|寒|暑|涼し|暖か|あったか|ぽかぽか|じめじめ|蒸し|冷え|しゃっこ|シャッコ|しばれ|人が多|人多"
                     r"|混んで|にぎやか|賑やか|静か|夕日|夕焼け|景色|眺め|桜|紅葉|星|月が)"
                     r"[^。！!？?]{0,12}(?:ね|ねえ|ねー|ねぇ|な|なあ|なー|よね|わね|のう|のぅ|なや|ねや|やね|やな|ばい|べ|のお)"
                     r"[！!〜ー♪✨。]*$")
# The weather heard of ('明日は雨らしいね', '午後から晴れるみたいやね'): still a remark on the day both share, where
# other news heard ('空から魚降ってくるらしいばい') is news.
REMARK_HEARD = lazy(r"(?:天気|晴れ|雨|雪|風|寒|暑|涼し|暖か|冷え)[^。！!？?、]{0,4}(?:らしい|みたい|そう)")
# Farewells.
FAREWELL = lazy(r"またね|(?:ここで|そろそろ|先に)(?:離脱|抜ける|落ちる)|[。、！!](?:ほな|じゃ)?おつ[〜ー]*[。！!]*$|また(?:おいで|来て|きて|寄って|よって|いらっしゃい|お越し)(?:ね|な|や|よ|ください)?[。！!〜ー]*$|じゃあね|じゃね(?!え)|ではまた|バイバイ|ばいばい|さようなら|さよなら|おやすみ|お休み(?:なさい)?[。！!〜ー]*$"
                      r"|(?:もう|そろそろ)?帰る(?:わ|ね|よ)?[。！!〜ー]*$|帰ります[。！!]*$"
                      r"|そろそろ(?:行|帰|戻|失礼|おいとま)|また明日|またあとで|また後で|また今度(?!でも)|失礼(?:します|いたします|する)"
                      r"|お先に|(?:^|[。！!、]|そろそろ|もう)(?:行かなきゃ|帰らなきゃ|帰んなきゃ)|行くね(?!ん)|帰るね(?!ん)|もう行く|じゃあまた|またな|またの[。！!]?$|また来週|また話そ"
                      r"|(?:んだら|んだば|ほんなら|そんじゃ|じゃ)、?まだ[ねな]|またらいしゅう|お暇(?:いたします|します|しま)|気[ぃい]?つけ[てで]帰|(?:それでは|では|じゃあ)、?ごきげんよう|帰るとするか|帰るがら|帰るけん|帰るわ"
                      r"|また改めて(?:お伺い|伺い|参り)"
                      # in kana ('でんしゃ くるから いくね！', 'ばいといかなきゃ、またはなそ') and one's leave ('わだしはこれで')
                      r"|(?<![わくうぼ])(?:いくね|いかなきゃ)(?!ん)|(?<!っく)(?:かえるね|かえらなきゃ)(?!ん)|またはなそ"
                      r"|(?:わたし|わだし|私|あたし|わし|ぼく|僕|俺|おれ|うち)は?これで[。！!、]"
                      r"|またあそ(?:ぼ|ぼう)|ばいばー?い|バイバー?イ|また遊ぼ|(?:このへん|この辺)で(?:[。！!…]+|$|失礼|終わ|お開き|おいとま)|気をつけてお帰り|お帰りくださ|これで失礼|^じゃ[。！!]?$|^ほな|^では[、。]?$|bye|see you",
                      re.IGNORECASE)
# Excuse me, on coming in: '失礼します' opening a line that goes on ('失礼します、何のお話ですか？') enters, it
# does not leave ('それでは失礼します', '失礼します。' alone, still leave).
ENTERING = lazy(r"^(?:あ、|あの、|どうも、|ちょっと)?失礼(?:します|いたします|しまーす|しますね)[、。！!]+(?=.)")
# Offers: something given, lent or done for the agent.
OFFER = lazy(r"あげる|あげよう|どうぞ|受け取って|(?<![てで])もらって|持ってきた|持って来た|お裾分け|おすそ分け|おすそわけ|差し入れ"
                   r"|^(?:これ|はい|ほれ|ほら)、?(?:お土産|おみやげ|おみや)"  # 'これ おみやげ。きょうとの やつはし': handed over
                   r"|貸そうか|貸してあげ|手伝おうか|手伝うよ|おごる|奢る|ごちそうする|プレゼント(?:する|だよ|です)"
                   # something to take home ('持っていかんか', '持ってけ', '持って帰り'), to eat if they like
                   r"|持って(?:いか(?!され|れ(?:た|て|ちゃ|ちま))|いき|いって|け[。！!]?$|帰り|かえり|帰って(?!(?:しま|しも|もう|もろ|ちゃ))|帰らん)"
                   r"|(?:よかったら|良かったら|あるけど|あるから|余って|余った|すぎちゃった|すぎた).{0,12}(?:食べ|飲|使)(?:る|ます|ん|へん)[？?]"
                   # one of something offered ('おはぎ作りすぎてしもうたで、ひとつどうかね')
                   r"|(?:ひとつ|一つ|おひとつ|お一つ|ひと口|一口|ひとくち)(?:どう|いかが)"
                   r"|あげよっか|あげよか|あげるね|教えっよか|教えよか|教えよっか|教えたろか")
# A thing given (reading/gift_offers.py): a verb of taking it, told to the one given it ('これ使い',
# 'お使いくださいませ', '持ってってけろ'); 持つ only with its taking along ('持ってって', not '持って').
TAKING = frozenset({"使う", "食べる", "食う", "飲む", "召し上がる", "貰う", "受け取る", "巻く", "着る", "羽織る",
                    "味見", "持ち帰る", "持つ", "使い"})
TAKEN_ONLY_ALONG = frozenset({"持つ"})
# A thing brought to them ('持ってくるね', '持ってぐがら' read as 持っ+て+グ): the going or coming after 持って,
# and what says it is for them (お礼に, wait for it).
BRINGING = frozenset({"行く", "来る", "グ", "てく", "てくる"})
FOR_THEM = frozenset({"礼", "御礼", "待つ", "お裾分け"})
ASKED_FOR = frozenset({"貰う", "呉れる", "頂く", "下さる"})  # '持ってきてもらえる？': a favour asked, no gift
TAKEN_ALONG = frozenset({"行く", "てく", "帰る", "帰り", "って"})  # って: '持ってって。' cut as 持っ+て+って
# What may follow it in a request: the て, a going along, the polite or imperative helpers.
REQUEST_TAIL = frozenset({"て", "で", "って", "てく", "行く", "帰る", "帰り", "下さる", "為さる", "ます", "呉れる", "な", "だ", "為る", "か",
                          "見る"})
TE_REQUEST = frozenset({"て", "で", "な", "って"})
ASKING_END = frozenset({"か"})
# Whether one wants a thing, asked after it is named ('チケット余ってるんだけど、いる？').
WANT_ASKED = frozenset({"いる", "要る", "いります", "要ります", "いらない", "いらん", "ほしい", "欲しい"})
WANT_AFTER = frozenset({"けれど", "から", "が"})
POLITE_TAIL = "ます"
SOMEONE = frozenset({"kin", "pet", "person_role", "second_person", "first_person"})  # concepts.json
WHEREABOUTS = frozenset({"辺", "近く", "辺り", "此処", "其処", "彼処", "家", "内", "部屋", "会社", "学校", "外", "中", "そば"})
WHAT, INDEFINITE_TAIL = "何", "か"  # '何かいる？': something wanted
IF_YOU_LIKE = lazy(r"よかったら|良かったら|よければ|良ければ|よろしければ|遠慮なく|遠慮せんと")
# The small vowels a voice is drawn out with in writing ('くださぁい'), by the vowel they sound.
SMALL_VOWELS = {"ぁ": "A", "ぃ": "I", "ぅ": "U", "ぇ": "E", "ぉ": "O", "ァ": "A", "ィ": "I", "ゥ": "U", "ェ": "E", "ォ": "O"}
SOFT_ENDS = frozenset({"よ", "ね", "ねー", "ばい", "けん", "や"})
SOFTENING_ENDS = frozenset({"よ", "ね", "な", "さ"})  # after a quoting って ('切ろうかなってさ')
# What shows a thing is handed over, not advice given ('これ食べ', 'ひとつ食べて', 'お使いください'; not
# 'ちゃんと食べてね'): a pointing word, a count, the honorific お, one's own ('俺の使い').
GIFT_POINTERS = frozenset({"此れ", "其れ", "ほれ", "ほら", "此方", "此の", "其の", "俺", "私", "僕", "うち", "内",
                           "一", "一つ", "幾つ", "御", "此奴"})
# Help offered: a verb of doing something for someone (lemmas), said as 'shall I' ('持とうか',
# 'お送りしましょうか'), with a benefactive ('直してあげる', '教えたげる'), or, for the verbs below
# it, plainly ('荷物持つよ', '案内するで'). A サ変 noun counts with its する ('案内する', 'お手伝いしましょうか').
HELP_VERBS = frozenset({"持つ", "運ぶ", "送る", "案内", "教える", "手伝う", "手伝い", "直す", "修理", "貸す", "驕る",
                        "奢る", "おごる", "届ける", "代わる", "調べる", "探す", "呼ぶ", "連れる", "片付ける", "取る", "作る",
                        "買う", "見る", "分ける", "出す", "払う", "支払う", "拭く", "押す", "紹介", "説明", "掃除", "用意",
                        "送迎", "手助け", "サポート", "預かる", "見せる", "撮る", "描く", "貸し出す", "譲る", "譲り", "迎える",
                        "乗せる"})
HELP_SAID_PLAINLY = frozenset({"持つ", "運ぶ", "案内", "教える", "手伝う", "手伝い", "直す", "修理", "貸す",
                               "驕る", "奢る", "おごる", "届ける", "代わる", "紹介", "説明", "預かる", "手助け", "送迎",
                               "譲る", "譲り", "迎える", "乗せる"})
# 'let me' ('おごら+せ+て', '払わ+せ+て'): the causative, then a request's て.
LET_ME = frozenset({"せる", "させる"})
# Going to do it for one ('迎え+に+行こうか', '手伝い+に+行くで'): the purpose's に, then coming or going.
PURPOSE, COMING_GOING = "に", frozenset({"行く", "来る"})
BENEFACTIVE = frozenset({"上げる", "遣る", "たげる", "差し上げる", "あげる", "やる"})
# Kansai's 'てやる', contracted: '持ったるわ', '運んだるで' (the analyzer's auxiliary たり/たる, with る).
KANSAI_BENEFACTIVE = ("たる", "だる")
# Endings of a plain offer that only make it polite or Kansai: '案内しますよ', '案内するで'.
PLAIN_TAIL = frozenset({"だ", "ます", "です"})
# 'shall I' asked of oneself: '何を作ろうかな' wonders, it offers nothing.
MUSING = ("かな", "かしら", "かなあ", "かなー")
# After a volitional and its quoting と, what makes it one's own intention ('片付けようと思ってる'), no offer.
INTENDING = frozenset({"思う", "考える", "決める", "決心"})
QUOTE_PARTICLES = ("と", "って", "っと")
# After a volitional, what makes it "let's" ('夕日見ようよ', '行こうぜ'), an invitation, not "shall I" ('持とうか').
LETS = ("よ", "ぜ", "や", "ね")
# 'shall we', asked together ('一緒に食べよっか'), and the verbs one says to oneself ('今日もがんばろう').
SHALL_WE = ("か", "っか", "かね")
SELF_RESOLVE = frozenset({"頑張る", "がんばる"})
POLITE_LETS = frozenset({"ます"})
# Torn: 'しようか迷ってる', 'やめようかなって考えてる': the question's か, then within a few words a verb of deliberating.
DELIBERATING = frozenset({"迷う", "悩む", "考える"})
EMBEDDED_QUESTION = "か"
DELIBERATION_GAP = 4  # '行きましょう'
LETS_DO = ("し", "よ")  # 'しよ', cut by the analyzer as し + よ
VOLITIONAL_TAIL = ("う", "ー")  # '行こう' in full; '行こ' is shortened, as talk is
EXCLAIMED = frozenset({"！", "!", "♪"})
DOING = "為る"  # the lemma of する after a サ変 noun
HUMBLE_DOING = "致す"  # its humble form: 'ご案内いたしましょうか' offers as '案内しましょうか' does
VOLITIONAL = "意志推量形"  # 持とう, しましょう, あげよっ
NON_PAST = ("終止形", "連体形")
# Words that end an offer said plainly ('持つよ', '案内するで', '教えるけん'), and the ones that make it no offer.
OFFER_ENDS = frozenset({"よ", "ね", "わ", "ぞ", "ぜ", "で", "だ", "けん", "さかい", "から", "し", "って", "？", "?", "！", "!", "。"})
TOGETHER = lazy(r"一緒|いっしょ|みんなで|皆で")
# Help offered in set phrases: '何かお手伝いできることはありますか', '力になるよ', 'おにぎり半分こしよ', 'Need help?'.
HELP_ASKED = lazy(r"(?:お)?手伝(?:い|え)(?:できる|出来る|する|しましょう|できそうな)?(?:こと|事)|(?:何か|なにか|なんか)"
                        r"(?:できる|出来る|やれる)(?:こと|事)|力にな(?:れる|ろう|るよ|ります|れたら)|半分こ|はんぶんこ|分けっこ"
                        r"|わけっこ|\bhelp\b|任せて|まかせて"
                        # 'お荷物、駅までお運びいたしましょうか': a humble 'shall I'
                        r"|(?:^|[、。\s])[^、。\s]{0,8}(?:お|ご)[一-龥]{1,3}[いきしちびみりえけせてべめれ]?(?:いた)?しましょうか"
                        # 'なんか買ってきてほしいものある？', 'ついでに何かいる？': an errand offered
                        r"|[てで](?:き|来)?(?:ほしい|欲しい)(?:もの|もん|物|こと|事)(?:ある|は|とか|あったら)"
                        r"|(?:何か|なにか|なんか)(?:いる|要る|いります|要ります|いらない|要らない)[？?]", re.IGNORECASE)
# An invitation said as a statement ('一緒に行こうよ！', '今度お茶しよう').
# 'Together, how about it?' ('一緒にどうかなって思って'): an invitation whatever follows ('よかったらだけど' is no warmth).
INVITE_ASKED = lazy(r"(?:一緒に|いっしょに)(?:どう|いかが)")
INVITE_SAID = lazy(r"(?:一緒に|いっしょに)(?:どう|いかが)|(?:一緒に|いっしょに|今度|こんど|そのうち|よかったら|良かったら).{0,20}(?:こう|よう|ろう|ぼう|もう|ごう|そう|しよう|しよ|こ|ぼ)"
                         r"(?:よ|ね|か|ぜ|や)?(?:[！!。♪〜ー]|$)|(?:行こう|行こ|いこう|いこ|行きましょう|しようよ|しましょう|食べよう|遊ぼう|あそぼ"
                         r"|行こか|行こうぜ|行こや)(?:よ|ね|ぜ|か|や)?(?:[！!。、♪〜ー]|$)|(?<!あり)(?<!ござい)ませんか$|来んかね|来ない[？?]?$|(?:来れる|来られる|これる)[？?]?$|(?:も|けど、?)(?:来る|くる)(?:やろ|よね|でしょ)?[？?]$|(?:行ける|いける)[？?]$|(?:でも|とか)?" + NOT_AFTER_A_STATE + r"どう(?:ですか|かな|でしょう)?[？?]?$"
                         r"|(?:ご飯|ごはん|お食事|食事|お茶|飲み|ランチ)でも[。！!〜ー]*$"
                         # 'won't you' in the older and the Kansai way: '茶でも飲まんかね', 'たこ焼きパーティーせえへん？'
                         r"|(?:飲ま|行か|来|こ|せ|食べ|見|遊ば|やら|寄ら)んかね[？?]?[。！!〜ー]*$"
                         r"|(?:せえ|せー|せぇ|しい|行か|いか|来え|こー|きい|食べ|飲ま|見い|やら|遊ば|寄ら)(?:へん|ひん)[？?][。！!〜ー]*$")
# Questions about the talk itself: 'なんの話してたの？'.
ABOUT_TALK = lazy(r"(?:何|なん|なに)の(?:お)?(?:話|はなし|相談)|(?:何|なに|なん)(?:を|の)?(?:お)?(?:話|はなし)(?:して|しよ|し)"
                        r"|どんな話|何について|なにについて|(?:何|なに|なん)(?:で|の話で)盛り上が")
# Questions about the agent's next steps: 'このあとどうするの？', '今日の予定は？'.
ABOUT_PLANS = lazy(r"(?:このあと|この後|これから|あとで|後で|今夜|今晩|午後|夕方|明日|あした|週末|次)(?:は)?.{0,6}"
                         r"(?:どうする|どうすん|何する|なにする|なんかする|何か予定|ご予定|予定|どこ行く|どこに行く|どこいく|何しよう)"
                         r"|(?:今日|きょう)の予定|予定(?:は|ある|ってある|[？?]|なの|ですか|でしょうか)|する予定|の予定"
                         r"|(?:帰って|終わって|戻って)から.{0,4}(?:何|なに|なん)|(?:何|なに)する(?:の|ん|[？?]|$)"
                         r"|お過ごしになる|(?:どっか|どこか)(?:行く|いく|出かけ)|(?:何|なんか|なにか)(?:決めて|予定)"
                         r"|(?:連休|休み|夏休み|冬休み|春休み|お正月|正月|年末|週末|ゴールデンウィーク|GW)(?:は|って)?.{0,4}(?:どうする|どうすん|何する|なにする|なんする)")
# Questions about the agent's day so far: '今日は何してたの？', '今日どうだった？', 'どこ行ってたの？'.
ABOUT_DAY = lazy(r"(?:今日|きょう|さっき|午前|今朝|朝)(?:から|まで)?(?:は|って)?.{0,6}(?:何|なに|なん)(?:を|か)?(?:して|やって|し)(?:た|い|は)"
                       r"|(?:今日|きょう)(?:は|って)?(?:どう|どんな)(?:だった|一日|やった|でした)|今日の一日|どの(?:へん|辺|あたり)(?:を|に|で|へ)|楽しかったこと|何した[？?]?$|なにした"
                       r"|(?:なん|何|なに)(?:しよった|しとった|しよったと|しとったん)|お過ごしになられ|お過ごしでした|過ごされました|どう過ごし(?:た|て)|(?:何|なに|なん)(?:し|やっ)てる(?:の|ん|[？?]|$)"
                       r"|(?:今日|きょう|本日|朝から).{0,8}(?:どこ|どちら|どさ)|どこ(?:に|へ|で)?(?:おった|行っとった|いたの|おったの)"
                       r"|(?:どこ|どちら)(?:に|へ)(?:いらっしゃ|行かれ|お出かけ)"
                       r"|(?:誰|だれ)か(?:と|に)?(?:会っ|しゃべっ|喋っ|話し)"
                       r"|どっか寄って|どこか寄って|出歩いて|歩きまわ|ずっとここに|いつ(?:ごろ)?(?:来た|から)|何時(?:ごろ)?から"
                       r"|(?:今日|きょう)(?:は|って)?誰か(?:に)?会っ|誰に会っ|会ったの、?(?:誰|だれ)|今日(?:は)?どこ(?:か)?(?:に|へ)?行っ")
# How are you, of late ('最近どう？', '調子はいかが？', '近頃どうしてる？'): a question about its days, never a 'how about it'.
HOW_ARE_YOU = lazy(r"(?:最近|さいきん|近頃|ちかごろ|調子|ちょうし|元気|げんき)(?:は|って|の方は|のほうは)?"
                         r"(?:どう|いかが|どない)")
# Within the day: whom it met.
ABOUT_MET = lazy(r"(?:誰|だれ)か(?:と|に)?(?:会っ|しゃべっ|喋っ|お?話し)|(?:誰|だれ)に会っ|会ったの、?(?:誰|だれ)"
                       r"|(?:誰|だれ)と(?:会|話|しゃべ)")
# A habit asked as a side one takes ('家にいる派？', '朝型？', 'インドア派？').
SIDE_ASKED = lazy(r"派[？?]|派なの|派だったり|(?<!何)(?<!なに)(?<!なん)型[？?]|型なの")  # not '血液型って何型？'
# Morning or night, as the pack's time_of_day answers it.
MORNING_WORDS = ("朝型", "朝派", "早起き", "朝", "午前", "早寝")
NIGHT_WORDS = ("夜型", "夜派", "夜更かし", "夜ふかし", "夜", "深夜", "夜中")
# What a 'favourite …' question names, by the pack's favourite kinds.
FAVOURITE_KINDS = {
    "food": ("食べ物", "たべもの", "食べもの", "料理", "ご飯", "ごはん", "おやつ", "お菓子"),
    "drink": ("飲み物", "のみもの", "飲みもの"),
    "place": ("場所", "ところ", "お店", "店", "スポット"),
    "season": ("季節", "シーズン"),
    "colour": ("色", "カラー"),
    "pastime": ("趣味", "遊び", "休みの日", "休日", "暇な時", "ひまな時", "暇なとき", "ひまなとき", "オフの日"),
    "time_of_day": ("時間帯",),
}
SEASONS = ("春", "夏", "秋", "冬")
# 'what do you do on your days off': the pastimes answer it.
PASTIME_ASKED = lazy(r"(?:休み|休日|暇|ひま|オフ|空いてる時|週末)(?:の日|の時|なとき|な時)?(?:は|って|に)?.{0,6}"
                           r"(?:何|なに|なん)(?:を|か)?(?:して|する|やって)|趣味|しゅみ"
                           # what it does at such times ('眠れない夜ってどうしてる？', '雨の日は何してるの？')
                           r"|(?<![今昨明本毎先])(?:夜|とき|時|日)(?:は|って|に)、?(?:(?:何|なに|なん)(?:を|か)?|どう)"
                           r"(?:して|する|やって)")  # not '今日は何してたの？' (its day) nor '今夜は…' (its plans)
FAVOURITE_ASKED = lazy(r"好きな|お気に入りの|いちばん好き|一番好き|推し")
# A question to the agent about itself, by the words that name it ('ニケちゃんは', 'あなたは', 'きみって').
YOU = lazy(r"あなた|君|きみ|キミ|お前|おまえ|そっち|そちら")
# A verb phrase runs on through these particles ('手伝ってた'), and never ends on them.
JOINING = ("て", "で")
QUESTION_MARKS = "？?"
# A told thing said back before 'んだ': a clause ends in a plain form ('出る', 'できた', '楽しい').
PLAIN_ENDINGS = "るたいうくすつぬぶむぐだ"
# The analyzer's forms a clause may end on before 'んだ' (its 終止形 and 連体形).
ENDING_FORMS = ("終止形", "連体形")
# Words a clause takes after its noun ('市民マラソンに出る'); ending words it stops before ('んだ', 'よ').
CLAUSE_PARTICLES = frozenset({"を", "に", "が", "で", "へ", "と", "は", "も"})
CLAUSE_STOPS = frozenset({"だ", "です", "ます", "ん", "の", "らしい", "って", "そう", "みたい", "じゃ", "でしょ"})
# A noun said before 'んだ' takes な ('面接なんだ').
NOUN_LINK = "な"
# Words (with NOUN_LINK) that make a one-letter noun part of a longer thing ('そっくりな子', '見かけた人'):
# no clause starts at it.
MODIFYING = frozenset({"adjectival", "adjective", "verb", "auxiliary"})  # "見かけた子": a clause before it
TOPIC_MARK = "は"  # the particle a said-back change puts after its plan (引っ越し+は+延期になった)
# 'ひいちゃって' said back as 'ひいちゃった', '読んで' as '読んだ'.
# An adjective's (or ない's) て is a state, said back as it is now: '腰が痛くて' as '腰が痛い' (never '痛くた').
TE_TO_PAST = {"くて": "い", "って": "った", "んで": "んだ", "いて": "いた", "いで": "いだ", "して": "した", "て": "た", "で": "だ"}
LISTED = "と"  # two places or people said together: '本屋と公園'
# Lines ending in て that tell, not ask ('できたんだって', '風邪ひいちゃって', '忙しくて').
TOLD_TE = lazy(r"(?:[たいるだ]で|まして|だって|ちゃって|じゃって|てて|でて|くて|って聞いた|たって)(?:さ|ね|よ|な)?[。！!…]*$")
CALLED_OFF = "はなしになった"  # a retraction said back when its own verb is not ('引っ越しはなしになったんだ')
# A question asked with no question mark ('あさとよる どっちがすき', 'きょう どこいったの'): a question word and an asking end.
BARE_QUESTION = lazy(rf"(?:{QUESTION_WORD.pattern}).*(?:の|か|かな|なの|っけ|すき|好き|派|する|した|いる|たい)[〜ー]?$"
                           r"|(?:どっち|どちら)[〜ー]?$|(?:こわくない|好きじゃない|平気)$|っけ[〜ー]?$"
                           r"|(?:最近|さいきん|近頃|ちかごろ|調子|ちょうし)(?:は|って)?(?:どう|いかが)(?:ですか|でしょう)?[〜ー]?$")  # how are you, unmarked
# How a retraction's noun is said back, by what the line did to it.
POSTPONED = lazy(r"延期|ずら|また今度|別の日")
MISSED = lazy(r"欠席|行けな|行けん|行かれへん|来れな|無理")
POSTPONED_SAID, MISSED_SAID = "は延期になった", "は行けなくなった"
POSTPONED_PLAIN = "延期になった"  # what was put off unnamed
CANCELLED = lazy(r"中止|取りやめ|キャンセル")
CANCELLED_SAID = "は中止になった"
# Nouns a retraction names its plan by that are not the plan ('さっきの話', 'カラオケの件').
# The days a plan may be moved to ('あしたにしよ'), said back as the change.
DAY_WORDS = frozenset({"今日", "きょう", "明日", "あした", "あす", "明後日", "あさって", "来週", "らいしゅう", "週末", "今度", "こんど",
                       "土曜", "日曜", "午後", "夕方", "夜", "朝", "月曜", "火曜", "水曜", "木曜", "金曜",
                       "月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日", "日曜日", "来週末", "昼"})
NOT_THE_PLAN = frozenset({"話", "件", "予定", "約束", "こと", "延期", "中止", "キャンセル", "欠席", "変更", "なし", "無し"})
# What a line gives as the reason ('台風来るから延期', '雨のせいで中止'): a noun before it is the cause, never the plan.
CAUSE = lazy(r"から|ので|のせいで|せいで|ために|ため、|で中止|で延期|により|によって|のため(?=中止|延期)")
# A plan changed to another thing: 'ハンバーグにする', '公園にしてくれん？'.
CHANGE_TO = lazy(r"(?P<new>[^\s、。！？!?にはがをのでと]{1,12})に(?:する|しよう?|して|した|変え|変更|すっぺ|すんべ|しよっか)")
CHANGE_SAID = "にする"
EVER_DONE = lazy(r"[たど]こと(?:が|は)?(?:あ|な|ござい)|[たど]ごど")  # 'これ食べたことある？'
CHANGE_FROM = lazy(r"じゃなくて|じゃなく|ではなく|やっぱり|やっぱ")  # before what a plan is changed to
CHANGED_BY_OTHERS = "変更"
# What a question is about, said first ('この町の町長って何歳？' is about the mayor, not the agent).
TOPIC_MARKED = lazy(r"^(?:ねえ|ねぇ|あの|ところで|そういえば)?[、,]?(?P<topic>[^、。？?！!]{1,14}?)(?:って|は)(?!ず)")
SIDE = "派"  # '家にいる派？': the side one takes
SIDE_TOPIC = r"って|は|、"  # what a side question is about ends before these
POLITE_ASKING_TAIL = lazy(r"(?:です|でしょう|ですの|なの|なん)?か?$")  # 'パン派ですか' asks as 'パン派' does
OF = "の"  # a noun before 話 ('花火大会の話'); a verb phrase goes straight on ('引っ越す話')
WHICH = lazy(r"どっち|どちら|どれ")
PAUSE = "、"
# What follows a name called at the start of a line ('ニケちゃん、', 'ニケさん！'): it only calls.
CALLED = lazy("(?:" + "|".join(map(re.escape, HONORIFICS)) + r")?[、,！!]\s*")
# Openers that ask for attention, not for something to be done ('ねえきいて！').
OPENERS = lazy(r"^(?:ねえ|ね|あのね|ちょっと)?、?(?:聞いて|きいて|見て|みて)[！!〜ー]*$")
SENTENCE_TAIL = "。！!…〜ー"  # what a bare question ends with before its ？ is added
PERSON = "人名"  # the analyzer's tag for a person's name
# A Kansai 'の' question ('平気なん？'), read as the standard one.
KANSAI_NAN = lazy(r"(?<=[ぁ-んァ-ヴー\u4e00-\u9fff])なん(?=[？?])")
# Kansai 'やけど' for 'だけど' at a clause's end ('三千円やけどな', '足ガクガクやけど'), not the burn of 'やけどした'.
KANSAI_YAKEDO = lazy(r"(?<=[^\s、。！？!?])やけど(?=[、。！!？?なねよ…〜ー]|$)")
STANDARD_KEDO = "だけど"
STANDARD_NO = "なの"
# A dialect's 'not any more' ('もらえんくなった', '会えねぐなる'), read as the standard 'なくなった'.
DIALECT_NAKU, STANDARD_NAKU = lazy(r"(?<=[ぁ-ん])(?:ん|ね)[くぐ](?=な[っるりい])"), "なく"
# A clock time in kanji numerals ('九時', '十一時半'), read as the digits the clock reader knows.
KANJI_CLOCK = lazy(r"(?<![一-龥])(?P<n>十[一二]?|[一二三四五六七八九])時(?![間的期代計刻])")
KANJI_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
# Tohoku's voiced 好ぎ ('どんな漬物が好ぎだ？', '何が好ぎだべ'), read as 好き.
# '好ぎ' (Tohoku), and 'すき' in kana where it ends a question or goes on as 好き does ('どんな映画すき？', 'すきなの？'):
# the analyzer reads a lone 'すき' as 隙 (a gap)
TOHOKU_SUKI, STANDARD_SUKI = lazy(r"好ぎ|(?<!だい)(?<!大)すき(?=[？?！!。〜ーっ]|$|な[のん？?]|だ|や[ろん]|じゃ|って|です|やねん)"), "好き"
# A word written in hiragana alone ('はっぴょうかい').
HIRAGANA_WORD = lazy(r"[ぁ-ゖー]+")
# What is left of a line that only calls someone ('ニケちゃーん！'): the honorific stretched, then marks and emoji.
NAME_CALL = lazy(r"^(?:ちゃ+ー*ん|さ+ー*ん|く+ー*ん|たん|ー)+")
CALL_SEPARATORS = "、,，。 　！!〜ー"  # between a name called and what follows it ('ニケちゃん、おつかれ')
GREETING_TAIL = lazy(r"[ー〜~！!。、…♪☆★\s\U0001F000-\U0001FFFF\u2600-\u27BF]+")
# What a greeting may carry besides its words and still be only a greeting: 'ございます', 'です', 'さん'.
GREETING_LEFTOVER = 5
# A negation right after a glad phrase turns it ('うまくいって|ない', 'ようなって|へん', '歩けるようになっ|てない');
# Kansai's past 'てん' is none ('パクられ|てん').
# What may open a line before its words ('、どうかな？' once a name or 'じゃーん' is read off it).
LEADING_MARKS = "、,。！!…〜ー 　"
# A verb in respect ('お出かけされた', '行かれる', 'いらっしゃる', 'なさる'): the one asked is its subject.
RESPECTED_DOING = lazy(r"(?:お|ご)[^、。？?]{1,6}(?:され|になられ|になっ|になり|なさ)|(?:行|来|帰|出)かれ|(?:来|見|帰)られ"
                       r"|いらっしゃ|なさい?ま|なさっ|召し上が|お過ごし")
# A volitional after these wonders what to do ('選ばれへんかったらどうしよ'), it invites to nothing.
# A line that wonders aloud, with no question mark ('その後なに入るんやろな', '誰が来るんだろう').
WONDERED = lazy(r"(?:何|なに|なん|誰|だれ|どこ|いつ)[^。！!？?]*(?:やろ|だろ|かな|かしら|じゃろ|べか)[ねなあー〜]*[。…]*$")
WONDERING = frozenset({"どう", "どない", "どげん", "どがい", "なんと"})
# Asked how a thing shown looks ('どうかな？', '似合う？', 'かわいくない？').
HOW_IT_LOOKS = lazy(r"(?:どう(?:かな|かしら|やろ|や|よ|ね)?|似合う|にあう|似合ってる|いい感じ|かわいくない|可愛くない"
                    r"|すごくない|良くない|よくない)[？?！!〜ー✨♪]*$")
NEGATION_AFTER = lazy(r"[ぁ-ゖ]{0,2}?(?:ない|なく|なかっ|ません|へん|ひん|(?<![てで])ん(?![だでと])|ず|ねえ|ねー|にゃあ)"
                      + "|" + "|".join(sorted(AVERTING)))  # a noun averted: '心配なし'
# A letter left over from typing in romaji ('図書館d', 'だｔった', 'なしｎ！', 'むりｒ'): one lower-case letter
# between Japanese letters (or at the end); 'w' is laughter ('優勝したんだけどｗ') and kept.
IME_LEFTOVER = lazy(r"(?<=[\u3040-\u30ff\u4e00-\u9fff])[a-vx-zａ-ｖｘ-ｚ](?=[\u3040-\u30ff\u4e00-\u9fff\s、。！？!?…〜]|$)")
# A consonant typed in romaji with the vowel kana the IME made of the rest ('まｔあな' is またな), its kana by row.
ROMAJI_SYLLABLE = lazy(r"(?<![A-Za-zＡ-Ｚａ-ｚ])([bdghkmnprstwyzｂｄｇｈｋｍｎｐｒｓｔｗｙｚ])([あいうえお])")
ROMAJI_ROWS = {"k": "かきくけこ", "s": "さしすせそ", "t": "たちつてと", "n": "なにぬねの", "h": "はひふへほ",
               "m": "まみむめも", "y": "やいゆえよ", "r": "らりるれろ", "w": "わいうえを", "g": "がぎぐげご",
               "z": "ざじずぜぞ", "d": "だぢづでど", "b": "ばびぶべぼ", "p": "ぱぴぷぺぽ"}
ROMAJI_VOWELS = "あいうえお"
ROMAJI_N, KANA_N = "n", "ん"  # an n left before another kana is ん ('ごめｎね')
KANA = lazy(r"[\u3041-\u3096\u30a1-\u30fa]")
# A face drawn in marks ('(｡•̀ᴗ-)✧', '(*´꒳`*)', '(^^;)'): no words, read as not there ('（笑）' has one, kept).
KAOMOJI = lazy(r"[(（][^()（）\sぁ-ゖァ-ヺ一-鿿A-Za-z0-9]{1,15}[)）][✧☆★♪vｖ]*")
# 'again' greetings said as an adverb ('久しぶりに帰ってくる') greet nobody.
ADVERB_PARTICLE = "に"
# A like word a topic may carry ('ピーマンすき'), and the thing asked of as it stands before one ('ピーマン すき？',
# 'あんこは好きかね'), not a noun at the end of a longer phrase ('…冷えた空気、好き？').
LIKE_TAIL = lazy(r"(?:すき|好き|スキ)$")
LIKED_AS_ASKED = lazy(r"(?:は|って|が|とか|も|、)*(?:好き|すき|スキ)")
# What may come before the thing asked of: nothing, a call ('ニケちゃん', 'あんた、'), an opener ('ねえ、').
CALL_PREFIX = lazy(r"^(?:[^、,\s]{0,8}(?:ちゃん|さん|くん|さま|様)|あんた|あなた|きみ|君|お前|ねえ|ねぇ|ところで)?(?:は|って)?[、,]?$")


def liked_as_asked(thing: str, asked: str) -> bool:
    """Whether ``thing`` is what ``asked`` asks the agent to like: the whole of what stands before the like
    word, after a call at most ('ニケちゃん ピーマン すき？', 'あんた、あんこは好きかね')."""
    unspaced = "".join(asked.split())
    at = unspaced.find(thing)
    return at >= 0 and CALL_PREFIX.match(unspaced[:at]) is not None \
        and LIKED_AS_ASKED.match(unspaced, at + len(thing)) is not None


# The particles a question asking to be agreed with may end in ('楽しくないか？', '寒くないね？').
AGREEING_TAILS = frozenset({"か", "の", "ね", "よね", "かな"})
# A question that only asks to be agreed with ('かわいくない？', 'すてきじゃない？').
AGREE_ASKED = lazy(r"(?:くない|じゃない|やない|くね|じゃね|ちゃう)(?:か|かな|よね|ね)?[？?]")
# A sentence with any Japanese in it ('which one?' has none: an aside in another language).
JAPANESE = lazy(r"[ぁ-ゖァ-ヴー\u4e00-\u9fff々]")
# A wave drawn out at a sentence's end ('案内するで〜'): no part of its words.
# Emoji (each read as MARK) with a space after them, not after a sentence's own end: they end the sentence.
MARK, FULL_STOP = "\0", "。"
MARKS_THEN_SPACE = lazy(r"(?<![。！？!?\0])\0+[ \u3000]+(?=\S)")
DRAWN_OUT = lazy(r"[〜~]+(?=[。！？!?\s]|$)")
# A question of when, about its day: since when it has been here, or out ('いつ来たの？', '何時ごろから').
ABOUT_SINCE = lazy(r"いつ(?:ごろ|頃)?(?:から|来た|きた|着いた|ついた)|何時(?:ごろ|頃)?(?:から|に来|にき|に着)|いつの間に")
# ... about where it is now ('ここにはいつ来たの？').
HERE_ASKED = lazy(r"ここ|こちら|この辺|このへん")


def clock_said(hh_mm: str) -> str:
    """'09:40' → '9時40分', '15:00' → '15時': a time as it is said."""
    hour, minute = (int(part) for part in hh_mm.split(":"))
    return f"{hour}時" + (f"{minute}分" if minute else "")
# 'で' after a noun: the means or the place ('自転車で転んで'), not what happened.
BY_MEANS = "で"
# The analyzer's tag of a noun that takes する ('怪我', '骨折').
DOABLE = "サ変可能"
# Words that only set the tone of what follows ('ぶっちゃけ、昨日フラれたわ'): never what a line is about.
DISCOURSE = frozenset({"ぶっちゃけ", "ぶっちゃける", "てか", "ってか", "正直", "マジで", "まじで"})
# A pause that ends what a line tells before it asks ('金魚が死んじゃった…どうしたらいい？').
TRAILING_OFF = "…"
# Told as heard from others ('変わるそうです', '降ってくるらしい'): news, not the speaker's plan.
HEARSAY = lazy(r"(?:そう|らしい|みたい|みてえ|みでえ)(?:です|や|だ|よ|ばい|やで|ね|な)*[。！!〜ー]*$|んだって[。！!〜ー]*$")
# The 'そう' of how a thing looks, after a stem ('おいし+そう', '降り+そう').
APPEARANCE = "そう"
STEM_FORMS = ("語幹", "連用形")
# What was said before, undone ('さっきの話、なしで', 'この前言ったの、間違いだった'): a retraction only with one of these.
NULLIFIED = lazy(r"なし|無し|なかったこと|取り消|忘れて|間違|まちが|ちが(?:う|った)|違(?:う|った)|やめ|止め|中止|延期|キャンセル")
# Invitations said as a request to come ('食べにおいでや', 'うちに あそびに きて', 'お越しいただけないでしょうか')
# or a negative question ('釣り行かんね？', 'お参りに行かんか。').
INVITE_COME = lazy(r"(?:遊び|あそび|食べ|飲み|見)に(?:おいで|来て|きて|来てね|きてね|来てや|来ん)|おいで(?:や|よ|ね|な)?[！!。〜ー]*$"
                   r"|お越し(?:いただけ|ください|になりませんか)|いらして(?:ください|ね)|いらっしゃいませんか"
                   r"|(?:行か|いか|来|こ)ん(?:ね|か|かね|かの|け)[？?。]?$"
                   # Tohoku's 'won't you come' ('ニケちゃんも来ねが？'); come along with me ('散歩つきあって')
                   r"|(?:来|こ|行が|いが)ねえ?(?:が|か)[？?。]?$|行かね[？?]$|(?:付き合って|つきあって|付いてきて|ついてきて)(?:よ|や|ね|な|くれ|ください)?[！!。〜ー]*$"
                   # a suggestion of something to do ('うちでお茶でもいかがですか？', 'ランチでもどう？')
                   r"|(?:ご飯|ごはん|お食事|食事|お茶|飲み|ランチ|散歩|映画)でも(?:いかが|どう)")
# A question whether one knows something ('知ってる？', 'ご存じですか'): answered from what the pack knows.
# A remark after a question short enough to leave the question what the line asks ('かさもってる？あめふりそう').
ASIDE_CHARS = 20
# A question after an apology short enough to ask only after the trouble caused ('待った？', '怒ってる？').
SHORT_ASK = 8
# Whether the agent remembers ('前にお話しした猫のこと、覚えてますか？'), or will not forget ('ひっこしても わすれない？').
# A line that refers back to something told before: "あのマフラー、やっと編み上がった！", "例の朝顔",
# "前に話した試験、受かったよ", "屋台の件、いよいよ来週から", "足、だいぶようなった".
# A line that goes on with the talk: a word that carries on at its start, or one that points back at what was
# said ('ほんでな、…', 'で、それがこないだバズって', 'あれ、結局うちで飼うことに', 'そこでばあさんと').
GOING_ON = lazy(r"^(?:で[、,ねさもな]|でな|それで|そんで|ほんで|ほいで|ほんなら|そんなら|そしたら|したら|じゃあ|ほな|ちなみに"
                r"|なるほど|ああ、|あ、|わかる|でもね|でもさ|しかも|それが|それで)"
                r"|(?:^|[、。！!？?\s])(?:それ|そこ|あれ|あそこ|そいつ|あいつ)(?:が|は|を|に|で|って|、|も|から|なら)"
                r"|(?:^|[、。！!？?\s])(?:その|あの)(?=[\u4e00-\u9fffァ-ヴ])")
BACK_REFERENCE = lazy(r"あの(?![ねさぁーっ〜、])|例の|前に(?:話|言|お話|相談)|この前|こないだ|このあいだ|先日|先週|結局|やっと|ようやく"
                      r"|だいぶ|あれから|その後|いよいよ|の件|のこと"
                      # '昨日話したやつ', 'きのう言うてた', '言ってたやつ': what was said on a day before (not
                      # 'きのういった', which is as often 'went')
                      r"|(?:昨日|きのう|昨夜|ゆうべ|おととい)(?:話|はな|言|お話|の[、,]|の話)"  # 'きのうの、なんとかおわった'
                      r"|(?:(?:話し|言っ)て?|(?:いっ|ゆう|ゆっ)て)(?:た|と[っる]た?)(?:やつ|ヤツ|の[、,]|こと|とこ|件)")

REMEMBER_ASKED = lazy(r"覚えて(?:る|ます|い|とる|おる|はる|おいで)|おぼえて(?:る|ます|い|とる)|覚えとる|忘れてない|わすれてない")
WONT_FORGET_ASKED = lazy(r"(?:忘れ|わすれ)(?:ない|んとって|へん)(?:よね|でね|で|ね|の)?[？?！!〜ー]*$")
# When a thing of the town opens or closes ('港の朝市って何時からやったっけ？'): the world's, asked of a topic.
# Wishing the agent well ('早く元気になってね', '無理しないでね', '気をつけてね', 'お大事に'): concern, thanked for.
WELL_WISHED = lazy(r"(?:(?:早く|はやく)?元気に?なって|お大事に|無理(?:は)?しないで|無理せんで|気をつけて|ゆっくり休んで)"
                   r"(?:ね|な|や|よ|ください|くださいね)?[。！!〜ー…]*$")  # said to the agent, closing the line
# Cheering the agent on ('がんばって！', 'ファイト〜', '応援してるよ'), closing the line: thanked for.
CHEERED = lazy(r"(?:がんばって|頑張って|がんばれ|頑張れ|ファイト|ふぁいと|応援して(?:る|ます|い)|応援しとる)"
               r"(?:ね|な|や|よ|ください|くださいね|ー|〜)?[。！!〜ー…✊💪]*$")
# A request ends its line on a verb's て: what is asked of the agent tells no news ('おもろいこと言うて').
REQUEST_TE = frozenset({"て", "で"})
REQUEST_TAILS = frozenset({"や", "よ", "ね", "な", "ー", "〜", "下さる", "くださる", "呉れる", "くれる", "頂戴", "ちょうだい"})

# 'Are you all right?' on its own ('寒くない？大丈夫？'), not asking leave ('借りても大丈夫？'): concern.
# ('寒いの、平気なん？', '犬、大丈夫？' ask what it can stand: a sentence of its own only).
ARE_YOU_OK = lazy(r"(?:^|[。！!？?\s、]|(?:ねえ|ねぇ|ねー|あの|ちょっと|おい|え|えっ)、)(?:(?:お?体|からだ|お?身体)(?:は|の方は|、))?"
                  r"(?:ほんとに|本当に|ほんまに)?(?:大丈夫|だいじょうぶ)(?:ですか|なの|なん|なんだべ|だべ|か|け|やろか)?[？?]")

# 'あ、いたいた！' (居た居た: there you are), never 痛い: the past doubled.
FOUND_YOU = lazy(r"(?:いた){2,}")
FOUND = "いた"

# Kansai's adjective denied without く ('風強ない？', '今日寒ない？'): normalised.py checks the stem is one.
STEM_NAI = lazy(r"(?P<stem>[\u4e00-\u9fff])ない(?P<end>[？?]|やん|よな|か)")
ADJECTIVE_I = "い"
ADJECTIVE_KU_NAI = "くない"

WHEN_OPEN = lazy(r"(?:って|は)、?(?:何時|なんじ|いつ)(?:から|まで|に(?:開|あ|閉|し))"
                 # '駅前の本屋さんって、日曜も開いてますか？', '図書館って月曜やってる？': a place's days
                 r"|(?:って|は)、?[^？?。]{0,8}(?:[月火水木金土日]曜|土日|祝日|休日|年末|お盆|正月)(?:日)?(?:も|は|って)?"
                 r"(?:開いて|やって|営業して|あいて|開いと|やっと|あいと)(?:ます|る|ん|い|た)"
                 r"|(?:って|は)、?\s*[^？?。]{0,8}(?:[月火水木金土日]曜|げつようび|かようび|すいようび|もくようび|きんようび|どようび|にちようび)"
                 r"(?:日)?\s*(?:も|は|って)?\s*(?:開いて|やって|あいて|開いと|やっと|あいと)")
# The weather ahead asked ('明日って雨降るのかな？', '週末晴れるかな'): nobody's to know.
FORECAST_ASKED = lazy(r"(?:明日|あした|今日|きょう|午後|夕方|夜|週末|今夜)(?:って|は)?[^？?。]{0,6}(?:雨|晴れ|はれ|雪|天気|降る|ふる)"
                      r"[^？?。]{0,8}(?:かな|かね|やろ|かしら|でしょうか|[？?])")
# A hypothetical asked ('もし明日、空が落ちてきたらどうする？'): played along with, never its plans.
HYPOTHETICAL = lazy(r"(?:^|、)もし(?:も)?[^？?]{1,30}(?:たら|なら|れば)[、,]?[^？?]{0,12}(?:どうする|どうしよ|どうします|どないする|どげんする"
                    r"|(?:何|なに)を?(?:する|します|したい)|どうなる|どう思う)"
                    r"|(?:^|、)[^？?、。]{1,20}(?:たら|れば)[、,]?[^？?、。]{0,10}?(?:どうする|どうします|どないする|どげんする)(?:べ|ん|の)?[？?]")  # '怒られたらどうする？'; '疲れたらどうしてる？' asks a habit
# A keyboard mash ('あsdfghjkl'): letters with no vowel among them.
MASHED = lazy(r"[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]{5,}")
# 'あんた、知ってたかい？' after something told: whether the agent knew it (it did not).
KNEW_ASKED = lazy(r"知って(?:た|まし)|知っとった|知っちょった|ご存[じ知]でした|しって(?:た|まし)|しっとった")
KNOWS_ASKED = lazy(r"知って(?:る|ます|い)|知っとう|知っとる|知らん(?:か|の)|知らない(?:か|の)?[？?]|知りません|ご存じ|ご存知|わかる[？?]"
                   # a thing heard, asked whether true ('昔ここに学校あったってほんと？', 'あのパン屋、閉店するってマジ？')
                   r"|(?:って|という(?:の|のは)?|らしい(?:けど|けど、)?)(?:ほんと|本当|ホント|マジ|まじ)(?:なの|なん|です|に)?(?:か)?[？?]")
# Whether the town has a thing near ('この辺でおいしいラーメン屋ある？', '近くにコンビニある？'): the world's to know.
NEAR_HERE = lazy(r"(?:この辺|このへん|この辺り|このあたり|近く|近所)(?:で|に|って|は)?.{0,15}(?:ある|あります|あったっけ|ございます)(?:でしょう)?(?:かな|の|か|かね)?(?:[？?]|。?$)")
# How far one place is from another ('バス停から病院まで歩いて何分くらい？'): the world's to know, no illness asked.
HOW_FAR = lazy(r"から.{1,12}まで.{0,8}(?:何分|何時間|どれくらい|どのくらい|どれぐらい|どんくらい|遠い|近い|かかる)"
               r"|まで(?:って)?、?(?:歩いて|バスで|電車で|車で)?(?:何分|何時間|どれくらい|どのくらい|どれぐらい)")
# A when/where question about the agent's own time ('いつ空いてる？', 'いつ会える？', 'どこで待ち合わせ？').
OWN_TIME = lazy(r"空いて|あいて|ひま|暇|都合|会え|会う|来れ|来られ|行け|行き|行く|待ち合わせ|何時に|来る|住")
# A meeting being settled ('じゃあ、そっちで4時ね', 'ほな駅前で3時に'): said once a time is named, with the
# words that close an arrangement; agreed to, not taken as news.
SETTLED = lazy(r"^(?:じゃあ|じゃ|では|なら|ほな|そしたら|それなら)|(?:ね|ねー|で|な|ことで|決まり|決定)[！!。〜ー♪]*$")
# Where a thing is, asked of the thing ('郵便局ってどの辺にありますか？', 'トイレはどこ？').
WHERE_IS = lazy(r"(?:って|は)、?(?:どこ|どちら|どの(?:辺|へん|あたり))(?:に|へ)?(?:ある|あり|です|だ|か|[？?]|$)|^[^、]{1,12}ってどこ")
# A line left unfinished ('実家のねこ、老衰で…', '金魚、ぷかぷか浮いてた…'): trailing off, in any spelling.
TRAILS_OFF = lazy(r"(?:…|\.{2,}|。{2,}|・{2,})[\s。！!]*$")
