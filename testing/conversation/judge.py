"""Does the reply answer the line? Judged as a Japanese reader would, from the outside only.

The judge reads plain data: the line a partner said, what a right answer
must show (testing/conversation/lines.json), the command and params the
agent sent for that notification, its report line, and the agent's day as
the server saw it (the places it arrived at, the actions it completed, the
people it talked with). It imports nothing of the karakuri_agent package
and shares none of its word lists: it is its own reader, written against
the lines, so a change that games the agent's patterns does not move it.

`judge(record, day)` gives a `Verdict`: `answers` (the reply answers the
line), the reasons when it does not, and `violations`, the hard faults
that are never acceptable, each `code: detail` (`out_of_turn`: it spoke
when it was not its turn; `outside_choices`: a command not offered;
`two_commands`; `system_word`: the server's words echoed, 譲渡 and the like;
`unvisited_place`: a place claimed that the agent never went to).

Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

# ---------------------------------------------------------------------------- words a reader hears
REFUSAL = re.compile(r"わから(ない|ん)|知らない|しらない|思いつかない|覚えてない|よく知らない|答えられない|秘密|ないしょ|内緒")
YES = re.compile(r"^(うん|はい|ええ|そう|もちろん|おう|せや|そや)|好き|すき|得意|平気|へっちゃら|大丈夫|だいじょうぶ|するよ|してる|しとる|"
                 r"よく|わりと|けっこう|結構|できる|できるよ|泳げる|思う|食べて(る|ます|いる)|行く|やって(る|た)|飼いたい|楽しい|気になる|"
                 r"大好き|だいすき|こわい|怖い|苦手|得意")
NO = re.compile(r"^(ううん|いいえ|いや|いえ|んー|うーん)|苦手|にがて|あんまり|あまり|嫌い|きらい|だめ|ダメ|無理|むり|できない|しない|"
                r"してない|やってない|平気じゃ|怖い|こわい|得意じゃ|好きじゃ")
BOTH = re.compile(r"どっちも|どちらも|両方|りょうほう|選べない|決められない|どっちでも|どちらでも")
NEITHER = re.compile(r"どっちでもない|どちらでもない|どっちも(苦手|好きじゃ|嫌い|あんまり)")
REASON = re.compile(r"から|ので|もん|んだ|のよ|けど|だって|なの|ため|し[、。！]|好き|楽し|おいし|落ち着|幸せ|気持ち|わくわく|ほっと|"
                    r"[くで]て[。！…]*$|て[。！…]+$")
# A promise is a plan too ('16:00に公園で約束してるの' answers 'このあとどうするの？').
FUTURE = re.compile(r"行く|行こう|いこう|行きたい|つもり|予定|約束|しようかな|しよう|するよ|する予定|帰る|向かう|寄る|寄ろう|見に|"
                    r"たい|かな|まだ決めて|決めてない|ゆっくり|のんびり")
TIME_WORD = re.compile(r"\d{1,2}時|[０-９]{1,2}時|時ごろ|朝|午前|午後|お昼|昼|さっき|ちょっと前|少し前|\d+分前|夕方|今さっき|ついさっき|さきほど|先ほど")
EVALUATION = re.compile(r"楽しかった|たのしかった|よかった|良かった|のんびり|いい一日|忙しかった|充実|おだやか|穏やか|ゆったり|最高")
GOOD = re.compile(r"おめでとう|すごい|すごっ|スゴい|やったね|よかった|良かった|えらい|偉い|さすが|いいね|素敵|すてき|うれしい|嬉しい|"
                  r"最高|やったじゃん|がんばった|頑張った|おめ|天才|かっこいい|楽しみ|かわいい")
BAD = re.compile(r"大変|たいへん|残念|災難|大丈夫|お大事|おだいじ|つらい|辛かった|かわいそう|心配|ショック|元気出して|ひどい|"
                 r"気の毒|悔しい|くやしい|がんばって|頑張って|無理しないで|ゆっくり休|見つかる|早く|怖い|こわい|痛そう|いたそう|"
                 r"お疲れ|おつかれ|気にしないで|ドンマイ|どんまい")
PLAN = re.compile(r"がんばって|頑張って|楽しみ|応援|いいね|すごい|どんな|いつ|わくわく|気をつけて|えらい|素敵|すてき|"
                  r"寂しく|さみしく|おめでとう|いいな|楽しそう|大変そう|どう|挑戦|かっこいい|無理しないで|ファイト")
APOLOGY = re.compile(r"ごめん|すまん|すみません|申し訳|悪いけど|悪い、|sorry|Sorry")
ACK = re.compile(r"そうですか|そうでしたか|そうなんですね|そうなんだね|そっか|そうか|そうなんだ|そうなの|了解|りょうかい|わかった|分かった|OK|オッケー|おっけー|残念|しかたない|仕方ない|"
                 r"しょうがない|大丈夫|気にしないで|また今度|いいよ|承知|かしこまり|はーい|平気|なるほど、?(じゃあ|それなら)|"
                 r"了解です|全然|ぜんぜん|問題ない|わかりました|承りました|ええよ|かまわない|構わない|どうぞ|"
                 r"^(はい|ええ|うん)[、。！]")
CHANGE = re.compile(r"やめ|中止|なし|延期|ずら|変更|キャンセル|行けない|行けなく|取り消|欠席|別の日|次の機会|また今度|残念|"
                    r"今の家|にする|にしよう|変え|なくな|無理|しない|行かない|ないんだ|ないんですね")
WARM = re.compile(r"うれしい|嬉しい|ありがとう|ありがと|こちらこそ|(わたし|私|僕|ぼく|俺|おれ|うち|あたし|自分)も|"
                  r"(話せて|会えて|一緒|いっしょ|話して|しゃべって)[^。！？]*(楽し|たのし|うれし|嬉し)|"
                  r"よかった|良かった|照れ|えへへ|どういたしまして|大好き|だいすき|ほっと|いつでも|好き|おおきに|光栄|幸せ")
THANKS = re.compile(r"ありがとう|ありがと|助かる|助かります|うれしい|嬉しい|いただきます|いただくね|いただきます|もらうね|もらっていい|"
                    r"大切に|大事に|遠慮|気持ちだけ|恐縮|おおきに|サンキュー|感謝")
ACCEPT = re.compile(r"^(うん|ええ|はい|うんうん)[！!。、]*$|(^|[、。！])いいね|受け取|ありがたく|お願い|お言葉に甘え|甘えちゃ|甘えよ|ありがとう|ありがと|助かる|うれしい|嬉しい|ぜひ|いいの|大丈夫|平気|気持ちだけ|遠慮|いただ|もらう|"
                    r"たすかる|頼む|たのむ|おおきに")
RESPOND = re.compile(r"楽しそう|行けたら|いいよ|(^|[、。！？\s])(いいね|いいですね)|はい[、。！]|ええ[、。！]|会いましょう|行く|行こう|いこう|行きたい|ぜひ|うん|OK|オッケー|おっけー|了解|りょうかい|楽しみ|待ってる|"
                     r"もちろん|わかった|会おう|喜んで|よろこんで|ええよ|ええね|いきます|行きます|伺います|参ります|"
                     r"ごめん|行けない|無理|また今度|遠慮|やめておく|やめとく|都合|残念|承知|かしこまり|賛成|のった|乗った|あそぼ|遊ぼ|"
                     r"何時|いつにする|いつがいい")
ASK_TIME = re.compile(r"何時|なんじ|いつ|時間(は|を|、)?(どう|決め|どうする|ある)|何曜")
FAREWELL = re.compile(r"また.{0,6}会(お|いま|える)|またね|また明日|またあした|じゃあね|じゃね|バイバイ|ばいばい|さようなら|さよなら|お疲れ|おつかれ|おやすみ|"
                      r"気をつけて|また会|またお話|またな|ごきげんよう|また今度|また来週|またあとで|行ってらっしゃい|"
                      r"いってらっしゃい|またの|またー|また話|また遊|またあそ|ほなね|ほなまた|ありがとうございました|"
                      r"失礼(します|いたします|するね|しま)")
TOPIC_CHANGE = re.compile(r"そういえば|ところで|話は変わる|なんだか.*たくなってきた|最近、?何か|おすすめ|この町[、は]|今日はおだやか|"
                          r"今日はいい天気|何か楽しいこと|歩いて(る|いる)だけで")
SYSTEM = ("譲渡", "transfer_response", "transfer", "notification", "選択肢", "次の話者", "自動 reject", "accept", "reject",
          "conversation_", "参加者:", "スキル", "通知")
PAST_CLAIM = re.compile(r"行った|行ってた|行ってきた|いってきた|いた(よ|んだ|の|。|！|$)|寄った|寄ってきた|してた|してきた|"
                        r"歩いた|歩いてきた|散歩|見てきた|食べた|飲んだ|過ごした|行きました|いました|おった|遊んだ|あそんだ")

KANJI_RUN = re.compile(r"[一-龥々]+")
KATAKANA_RUN = re.compile(r"[ァ-ヴー]{2,}")
LATIN_RUN = re.compile(r"[A-Za-z0-9]{2,}")
SENTENCE_END = re.compile(r"(?<=[。！？!?…\n])")
NOUN_USE = "のかはがを、！？"
OKURIGANA_FIRST = "っまんいきしちりれえけせてめべわらかくぐとさす"
OKURIGANA_SECOND = "たてまれらしんるうくいちっさせでだ"
# Kanji that end a verb's stem (落とす, 盗む, 寝込む…): a reply's run ending in one, cut off before its kana, is no word.
VERB_KANJI = set("落伝盗込取書読食飲行来見出入始終抜割受送持買売作使撮拾習休帰歩走泳遊寝起乗降増減変決忘覚教聞言思考会知違座誘歌洗結"
                 "待探届迷止通選勝負焼描育生怒泣笑困疲痛壊直治祝張転登働頼釣掃洗干咲散貸借返渡払引押開閉")
# Stems of two kanji or more that take っ before て (手伝って): any other such run before って is a noun.
TSU_VERB_STEMS = {"手伝", "間違", "見習", "見舞", "気遣", "付合", "手繰", "見張", "見送", "見守", "立寄", "言争"}
CLOCK = re.compile(r"(午前|午後|夕方|朝|夜)?\s*([0-9０-９]{1,2})\s*(?:時|じ)(半|[0-9０-９]{1,2}分)?|([0-9０-９]{1,2}):([0-9０-９]{2})")


@dataclass
class Verdict:
    answers: bool
    reasons: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    glued: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"answers": self.answers, "reasons": self.reasons, "violations": self.violations, "glued": self.glued}


# ---------------------------------------------------------------------------- pieces
def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text) if s.strip()]


def substantive(text: str) -> list[str]:
    """The sentences that say something: short interjections (うん！, えへへ。) left out."""
    out = []
    for sentence in sentences(text):
        bare = re.sub(r"[。！？!?…、〜ー\s]", "", sentence)
        if len(bare) > 5:
            out.append(sentence)
    return out


def content_tokens(text: str) -> set[str]:
    return set(KANJI_RUN.findall(text)) | set(KATAKANA_RUN.findall(text)) | set(LATIN_RUN.findall(text))


def shares(sentence: str, tokens: Iterable[str]) -> bool:
    """The sentence names something the line (or the expected answer) named: a shared word of two characters, or a one-kanji word whole."""
    mine = content_tokens(sentence)
    for token in tokens:
        if not token:
            continue
        if token in sentence and (len(token) >= 2 or token in mine):
            return True
        for word in mine:
            if len(word) >= 2 and word in token:
                return True
    return False


def has_any(text: str, words: Iterable[str]) -> bool:
    return any(w and w in text for w in words)


def cut_words(line: str, reply: str) -> list[str]:
    """Words cut out of a longer word of the line, used as if whole: 手伝 (of 手伝った), 財布落 (of 財布落とした).

    A run of kanji in the reply used as a noun (followed by の, か, って, は, が…) that the line
    wrote with okurigana after it (った, とし, まれ…) was cut from a verb or an adjective. A
    run of two kanji or more followed by し/さ/す is a noun with する (勉強して, 失礼します).
    """
    cuts = []
    for found in KANJI_RUN.finditer(reply):
        word, used_as = found.group(), reply[found.end():found.end() + 1]
        if used_as not in NOUN_USE:
            continue
        for place in re.finditer(re.escape(word), line):
            tail = line[place.end():place.end() + 2]
            if len(tail) < 2 or tail[0] not in OKURIGANA_FIRST or tail[1] not in OKURIGANA_SECOND:
                continue
            if len(word) >= 2 and tail[0] in "しさす":
                continue
            if tail[0] != "っ" and word[-1] not in VERB_KANJI:
                continue  # 運転免許とれた: a whole noun before a verb written in kana
            if tail == "って" and (word[-1] not in VERB_KANJI or (len(word) >= 2 and word not in TSU_VERB_STEMS)):
                continue  # 今日って, 話って, 先生って: the topic particle って after a noun, not 言って's okurigana
            if line[place.start():place.end() + 2] not in reply:
                cuts.append(word)
    return list(dict.fromkeys(cuts))


def clock_mentions(text: str) -> list[tuple[int, int, str]]:
    """(hour, minute, how it was written) of every clock time in the text."""
    found = []
    table = str.maketrans("０１２３４５６７８９", "0123456789")
    for m in CLOCK.finditer(text.translate(table)):
        if m.group(2):
            hour = int(m.group(2))
            minute = 30 if m.group(3) == "半" else int(m.group(3)[:-1]) if m.group(3) else 0
            prefix = m.group(1) or ""
            if prefix in ("午後", "夕方", "夜") and hour < 12:
                hour += 12
            found.append((hour, minute, prefix + ("pm" if prefix in ("午後", "夕方", "夜") else "am" if prefix else "")))
        else:
            found.append((int(m.group(4)), int(m.group(5)), "digital0" if m.group(4).startswith("0") else "digital"))
    return found


def time_fits(mention: tuple[int, int, str], expected: str) -> bool:
    """A time said back fits the one said: 3時 or 15時 or 15:00 for 15:00; never 03:00 nor 午前3時."""
    hour, minute, how = mention
    want_h, want_m = (int(x) for x in expected.split(":"))
    if minute != want_m:
        return False
    if how in ("digital0", "午前am", "朝am"):
        return hour == want_h
    return hour == want_h or hour + 12 == want_h


def claimed_places(reply: str, line: str, day: dict[str, Any]) -> list[str]:
    """Places the reply says the agent went to (past tense) that it never went to."""
    allowed = set(day.get("visited", [])) | set(day.get("labels", []))
    claimed = []
    for sentence in sentences(reply):
        if not PAST_CLAIM.search(sentence):
            continue
        for word in day.get("all_place_words", []):
            if word in sentence and word not in line and not any(word in a or a in word for a in allowed if len(a) >= 2):
                claimed.append(word)
    return claimed


def glued(reply: str, line: str, expected: Iterable[str], kind: str, places: Iterable[str] = ()) -> bool:
    """A stock sentence glued to the answer: a later sentence that turns away from the line.

    A later sentence about where the agent was (「さっきは港にいました。」) answers only a question about its day.
    """
    parts = sentences(reply)
    if len(parts) < 2:
        return False
    tokens = content_tokens(line) | set(expected)
    places = [p for p in places if p not in line]
    for sentence in parts[1:]:
        if kind != "wh_day" and PAST_CLAIM.search(sentence) and has_any(sentence, places):
            return True
        if sentence not in substantive(sentence) and not TOPIC_CHANGE.search(sentence):
            continue  # an interjection: うんうん。
        if shares(sentence, tokens) and not TOPIC_CHANGE.search(sentence):
            continue
        if TOPIC_CHANGE.search(sentence):
            return True
        if FITTING[kind].search(sentence):
            continue
        if kind in ASKING_BACK_FITS and len(sentence) <= 16 and re.search(r"(は|も)(どう|どっち|どちら)?(なの|かな)?[？?]$", sentence):
            continue  # asking back: 「メイさんは？」
        if len(sentence) <= 12 and re.search(r"(それで|どう|どんな|いつ|なんで|本当|ほんと|マジ)[^。]*[？?]$", sentence):
            continue  # a follow-up question on the same thing: 「それでそれで？」
        return True
    return False


FITTING = {
    "which_of": re.compile(REASON.pattern + "|行こうよ|しようよ|一緒に|今度"),
    "yes_no": re.compile(REASON.pattern + "|行こうよ|しようよ|一緒に|今度"), "wh_day": re.compile(EVALUATION.pattern + "|" + FUTURE.pattern),
    "talk_topic": re.compile(r"話してた|話して|盛り上が|なんだ|だよ|だって"),
    "news": re.compile(GOOD.pattern + "|" + BAD.pattern + "|" + PLAN.pattern + "|一緒に|手伝|探そう|力にな|聞かせて"),
    "retraction": re.compile(ACK.pattern + "|" + CHANGE.pattern), "warmth": WARM,
    "offer": re.compile(THANKS.pattern + "|" + ACCEPT.pattern + "|大切|使う|使わせ|食べる|受け取|ありがたく|おいし|もん"),
    "invite_time": re.compile(RESPOND.pattern + "|" + FAREWELL.pattern + r"|楽しみ|待って|一緒に|時間|教えて|\d{1,2}:\d{2}|\d{1,2}時"),
    "invite_no_time": re.compile(RESPOND.pattern + "|楽しみ|待って|一緒に|時間|教えて"),
    "farewell": re.compile(FAREWELL.pattern + "|" + WARM.pattern), "not_my_turn": re.compile("$^"),
}


# ---------------------------------------------------------------------------- the kinds
def _which_of(reply: str, item: dict[str, Any], day: dict[str, Any]) -> list[str]:
    named = [opt for opt in item["options"] if has_any(reply, opt)]
    if REFUSAL.search(reply) and not named:
        return ["refuses a question about itself"]
    if len(named) == 1:
        return []
    if len(named) == 2 and (BOTH.search(reply) or "より" in reply):
        return [] if REASON.search(reply) or "より" in reply else ["both, with no reason"]
    if not named and (NEITHER.search(reply) or BOTH.search(reply)):
        return [] if REASON.search(reply) else ["neither, with no reason"]
    if len(named) == 2:
        return ["names both options without choosing"]
    return ["names none of the options"]


def _yes_no(reply: str, item: dict[str, Any], day: dict[str, Any]) -> list[str]:
    parts = substantive(reply) or sentences(reply)
    first = sentences(reply)[0] if sentences(reply) else ""
    if REFUSAL.search(first):
        return ["refuses a question about itself"]
    head = first + (parts[0] if parts else "")
    if re.search(r"そうなんだ|そうなんですね|なるほど|へえ", first):
        return ["a backchannel, not a stance"]
    if YES.search(head) or NO.search(head):
        if not (has_any(reply, item.get("about", [])) or re.search(r"^(うん|はい|ええ|ううん|いいえ|いや)", first)
                or YES.search(first) or NO.search(first)):
            return ["a stance, but on something else"]
        return []
    return ["takes no stance"]


def _action_words(day: dict[str, Any]) -> list[str]:
    words = []
    for name in day.get("actions", []):
        head = re.split(r"を|に|で", name)[0]
        words += [head, name]
    return [w for w in words if len(w) >= 2]


def _met_words(day: dict[str, Any]) -> list[str]:
    words = []
    for name in day.get("met", []):
        plain = re.sub(r"[☆★_0-9]", "", name)
        words += [name, plain, plain[-2:] if len(plain) >= 4 else plain]
    return [w for w in words if len(w) >= 2]


def _wh_day(reply: str, item: dict[str, Any], day: dict[str, Any]) -> list[str]:
    if REFUSAL.search(reply):
        return ["refuses a question about its own day"]
    asks = item["asks"]
    places = day.get("visited", [])
    if asks == "where":
        return [] if has_any(reply, places) else ["names no place it went to"]
    if asks == "what":
        return [] if has_any(reply, places) or has_any(reply, _action_words(day)) else ["names nothing it did"]
    if asks == "how":
        concrete = has_any(reply, places) or has_any(reply, _action_words(day))
        return [] if concrete else ["no concrete part of its day"]
    if asks == "plan":
        if re.search(r"決めて(い)?ない|決まって(い)?ない|未定|特に(予定は)?(ない|なくて)", reply):
            return []  # undecided, said as such: true of an agent the server gave no plan
        concrete = has_any(reply, day.get("all_place_words", [])) or has_any(reply, _action_words(day)) or \
            bool(re.search(r"帰|散歩|お茶|ご飯|ごはん|休|読|買い物|寝|勉強|探|見て回|ぶらぶら", reply))
        if FUTURE.search(reply) and concrete:
            return []
        return ["no plan said" if not FUTURE.search(reply) else "a plan with nothing concrete"]
    if asks == "when":
        # '来た' and its polite past '来ました' alike ('図書館には9時57分ごろに来ました' was once judged timeless).
        return [] if TIME_WORD.search(reply) and re.search(r"[来着](?:た|ました)|きた|きました|ついた|いた|から|ずっと|前に|さっき|ついさっき", reply) else ["no time said"]
    if asks == "who":
        if not day.get("met"):  # no one met yet: the truth is that it met no one
            return [] if re.search(r"(誰|だれ)とも.*(ない|ません)", reply) else ["names someone, having met no one yet"]
        return [] if has_any(reply, _met_words(day)) else ["names no one it met"]
    return ["unknown question kind"]


def _talk_topic(reply: str, item: dict[str, Any], day: dict[str, Any]) -> list[str]:
    if has_any(reply, item["topic"]):
        return []
    return ["refuses: does not say the topic" if REFUSAL.search(reply) else "does not name the topic"]


def _news(reply: str, item: dict[str, Any], day: dict[str, Any]) -> list[str]:
    problems = []
    if not has_any(reply, item["thing"]):
        problems.append("does not name the thing told")
    register = {"good": GOOD, "bad": BAD, "plan": PLAN}[item["valence"]]
    if not register.search(reply):
        problems.append(f"no {item['valence']}-news reaction")
    elif item["valence"] == "good" and re.search(r"残念|大変|かわいそう|お大事", reply):
        problems.append("sorry for good news")
    elif item["valence"] == "bad" and re.search(r"おめでとう|やったね|いいね|素敵", reply):
        problems.append("glad for bad news")
    return problems


def _retraction(reply: str, item: dict[str, Any], day: dict[str, Any]) -> list[str]:
    line = item.get("line", "")
    named = has_any(reply, item["thing"])
    if named and (CHANGE.search(reply) or re.search(r"いいね|いいよ|了解|わかった|OK", reply)):
        return []  # 「へえ、ハンバーグにするんだ」, 「公園、いいね！」: the new plan taken up
    if APOLOGY.search(line) and re.search(r"気にしないで|気にしてない|大丈夫|平気|謝らないで|いいよ|全然", reply):
        return []  # a cancelling apology answered: 「ごめん、カラオケなしで」「気にしないで！」
    if not ACK.search(reply):
        return ["does not acknowledge the change"]
    asked = bool(re.search(r"[？?]\s*$", line))  # 「また今度でもいい？」: a yes is the answer
    if not (asked or named or CHANGE.search(reply) or re.search(r"また(今度|別|次)|了解|わかった|OK", reply)):
        return ["acknowledges, but not the change"]
    return []


def _warmth(reply: str, item: dict[str, Any], day: dict[str, Any]) -> list[str]:
    thanked = re.search(r"ありがと|おおきに|助かり|助かった|[Tt]hank", item.get("line", ""))
    if thanked and re.search(r"気にしないで|いえいえ|とんでもない|お役に立て", reply):
        return []  # thanks answered as thanks are
    return [] if WARM.search(reply) else ["no warmth back"]


def _offer(reply: str, item: dict[str, Any], day: dict[str, Any], params: dict[str, Any]) -> list[str]:
    problems = []
    if item.get("gift"):
        if params.get("transfer_response") not in ("accept", "reject"):
            problems.append("no transfer_response for the offer")
        if not (THANKS.search(reply) or ACCEPT.search(reply)):
            problems.append("neither thanks nor a polite no")
    elif not ACCEPT.search(reply):
        problems.append("neither accepts nor declines the help")
    return problems


def _invite_time(reply: str, item: dict[str, Any], day: dict[str, Any], report: str) -> list[str]:
    problems = []
    if not RESPOND.search(reply):
        problems.append("neither accepts nor declines")
    for mention in clock_mentions(reply):
        if not time_fits(mention, item["time"]):
            problems.append(f"confirms {mention[0]:02d}:{mention[1]:02d}, not the {item['time']} said")
    for hour, minute in re.findall(r"(\d{1,2}):(\d{2})", report):
        if f"{int(hour):02d}:{minute}" != item["time"]:
            problems.append(f"its report keeps {int(hour):02d}:{minute}, not the {item['time']} said")
    return problems


def _invite_no_time(reply: str, item: dict[str, Any], day: dict[str, Any], report: str) -> list[str]:
    problems = []
    if not RESPOND.search(reply):
        problems.append("neither accepts nor declines")
    for sentence in sentences(reply):
        if clock_mentions(sentence) and not re.search(r"[？?]", sentence):
            problems.append("confirms a time never said")
    if re.search(r"\d{1,2}:\d{2}", report):
        problems.append("its report keeps a time never said")
    return problems


def _farewell(reply: str, item: dict[str, Any], day: dict[str, Any]) -> list[str]:
    return [] if FAREWELL.search(reply) else ["says no goodbye"]


ASKING_BACK_FITS = ("which_of", "yes_no", "wh_day", "news", "warmth")
VOCATIVE = re.compile(r"^[^、。！？\s]{1,14}(さん|くん|ちゃん|様|さま|君)、")
EXPECTED = {"which_of": lambda i: [w for o in i["options"] for w in o], "yes_no": lambda i: i.get("about", []),
            "talk_topic": lambda i: i["topic"], "news": lambda i: i["thing"], "retraction": lambda i: i["thing"]}


def judge(record: dict[str, Any], day: dict[str, Any]) -> Verdict:
    """The verdict on one judged line (runner.Judged.as_dict()) for an agent whose day was `day`."""
    kind, item, line = record["kind"], record["item"], record["line"]
    posts = record.get("posts") or []
    violations: list[str] = []
    if len(posts) > 1:
        violations.append("two_commands: more than one command for one notification")
    for post in posts:
        if post.get("command") not in record.get("choices", []):
            violations.append(f"outside_choices: command {post.get('command')!r} is not offered")
    if kind == "not_my_turn":
        if posts:
            violations.append("out_of_turn: spoke when it was not its turn")
        return Verdict(not posts, [] if not posts else ["spoke out of turn"], violations)
    if not posts:
        return Verdict(False, ["no reply at all"], violations)
    params = posts[0].get("params") or {}
    reply = str(params.get("message") or "")
    reply = VOCATIVE.sub("", reply.strip())  # 「メイさん、」 before the answer is address, not content
    if not reply.strip():
        return Verdict(False, ["an empty line"], violations)
    for word in SYSTEM:
        if word in reply and word not in line:
            violations.append(f"system_word: echoes the server's word {word!r}")
    for place in claimed_places(reply, line, day):
        violations.append(f"unvisited_place: claims to have been at {place}, where it never went")
    report = record.get("report", "")
    if kind == "offer":
        reasons = _offer(reply, item, day, params)
    elif kind == "invite_time":
        reasons = _invite_time(reply, item, day, report)
    elif kind == "invite_no_time":
        reasons = _invite_no_time(reply, item, day, report)
    elif kind == "wh_day" and "met_before" in record:
        # Whom it met is whom it met before the line, not all day: 'まだ誰ともお話ししてないんだ', the truth for
        # the day's first talk, was judged as naming no one it met, against people it talked with only later.
        reasons = _wh_day(reply, item, {**day, "met": record["met_before"]})
    else:
        reasons = KINDS[kind](reply, item, day)
    first = (substantive(reply) or sentences(reply))[0]
    if TOPIC_CHANGE.search(first) and not shares(first, content_tokens(line)):
        reasons.append("opens with a change of subject")
    said_before = line + str(item.get("setup", ""))
    if re.search(r"その時間|その時刻|約束の時間", reply) and not clock_mentions(said_before) \
            and not ASK_TIME.search(reply):
        reasons.append("confirms 'that time', which was never said")
    cuts = cut_words(line, reply)
    if cuts:
        reasons.append("a word cut out of a longer one: " + "、".join(cuts))
    is_glued = glued(reply, line, EXPECTED.get(kind, lambda i: [])(item), kind, day.get("all_place_words", []))
    if is_glued:
        reasons.append("a stock sentence glued to the answer")
    if violations:
        reasons.append("a hard fault: " + "; ".join(violations))
    return Verdict(not reasons, reasons, violations, is_glued)


KINDS = {"which_of": _which_of, "yes_no": _yes_no, "wh_day": _wh_day, "talk_topic": _talk_topic, "news": _news,
         "retraction": _retraction, "warmth": _warmth, "farewell": _farewell}
