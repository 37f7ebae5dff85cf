"""Print the agent's reply to a varied set of partner lines, to read them.

    python benchmarks/speech_samples.py [seed-prefix]
    python benchmarks/speech_samples.py --smoke   # the same; exit 1 when a line got no reply

Questions of each kind, statements, greetings and farewells, each with the
reply the bundled persona gives. Nothing is asserted: this is for a person
to read the lines as a Japanese reader would (tests check the rules).
"""

from __future__ import annotations

import sys

from karakuri_agent.voice.speech import Memory, compose
from karakuri_agent.voice.persona_pack import load_persona

PARTNER_LINES = [
    # yes/no
    "本屋に新刊が入ったんだって！ニケちゃんは本好き？",
    "ニケちゃん、甘いもの好き？",
    "ホラー映画って好き？",
    "今ひま？",
    "ニケ、起きてるかー？",
    "Lunaちゃん、さっきから静かだね…寝てる？",
    "辛いラーメン食べられる？",
    "元気？",
    # indefinite (yes/no wanting the thing)
    "そういえば最近、何か読んだ？",
    "何か食べた？",
    "どこか行ってきた？",
    # invitations
    "コンビニ行く？おにぎり2個で300円だよ。",
    "ニケちゃん、ちょっといい？",
    "今度一緒に映画観に行かない？",
    "お化け屋敷、行ってみない？",
    # choices
    "コーヒーと紅茶、どっちが好き？",
    "山と海ならどっち派？",
    "ラーメンかうどんか、どっちにする？",
    "犬と猫、どっちが好き？",
    # what / where / when / who / how / why
    "どんな本が好き？",
    "好きな食べ物は何？",
    "今どこにいるの？",
    "さっきどこ行ってたの？",
    "休みの日はどこ行きたい？",
    "好きな場所は？",
    "いつ空いてる？",
    "誰と来たの？",
    "何してるの？",
    "調子どう？",
    "なんでそう思うの？",
    "コウくん、その書き方なんか変だよ笑 ニケちゃんはどう思う？",
    # statements
    "今日はいい天気だね。",
    "俺は銭湯。松の湯は18時までに行けば空いてるらしい。",
    "数学のプリント、コピーしておいたよ。全部で12枚。",
    "知らんw それより腹減った🍙",
    "わたしは本屋「栞」に寄ろうかな。コウくんは？",
    # greetings and farewells
    "こんにちは！",
    "おはよう、ニケちゃん！",
    "ごめん、そろそろ店番に戻るね。また明日！",
    "じゃあね、またね！",
]


def main(prefix: str = "s", *, smoke: bool = False) -> None:
    persona = load_persona()
    memory = Memory(here="6-11 (喫茶店 店内)", recent_places=("本屋 店内", "公園 広場"),
                    known_places=("本屋 店内", "公園 広場", "神社 境内", "喫茶店 店内"))
    said: list[str] = []
    for i, line in enumerate(PARTNER_LINES):
        reply = compose("reply", persona=persona, partner_name="灯屋ユウ", last_line=line,
                        place_name="6-11 (喫茶店 店内)", previous_lines=said, seed=f"{prefix}{i}",
                        memory=memory)
        said.append(reply)
        print(f"{line}\n  → {reply}")
    if smoke and not all(said):
        sys.exit(f"smoke: broken: {said.count('')} of {len(said)} lines got no reply")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(*[arg for arg in args if arg != "--smoke"][:1], smoke="--smoke" in args)
