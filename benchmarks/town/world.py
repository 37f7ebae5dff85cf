"""The static world of the simulated town: places, roads, actions, people and their lines.

Everything here is plain data. The town (`sim.py`) moves people around it;
the metrics (`metrics.py`) read the place words and line tags to judge what
the agent said. Nothing here knows about the agent under test.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SELF_ID = "1470446478261747854"
SELF_NAME = "AIニケちゃん"
TOWN_NAME = "からくり町"
HEADER = (
    f"あなた ({SELF_NAME}) は仮想世界「{TOWN_NAME}」にログインしています。\n"
    "どこにでもありそうな日本の小さな町。神社や学校、商店街に映画館。穏やかな日常が流れている。"
)
TICK_MINUTES = 10


@dataclass(frozen=True)
class Action:
    action_id: str
    name: str
    seconds: int
    cost: int = 0
    item: str | None = None

    @property
    def ticks(self) -> int:
        return max(1, -(-self.seconds // (TICK_MINUTES * 60)))


@dataclass(frozen=True)
class Place:
    node_id: str
    name: str  # as the server writes it: "図書館 館内"
    word: str  # how people call it in speech: "図書館"
    actions: tuple[Action, ...]
    building: str = ""  # "喫茶店「さくら」" for the 近くの建物 line

    @property
    def label(self) -> str:
        return f"{self.node_id} ({self.name})"


PLACES: tuple[Place, ...] = (
    Place("1-1", "駅 前", "駅", (
        Action("watch-trains", "電車を眺める", 600),
        Action("buy-ekiben", "駅弁を買う", 900, 1100, "駅弁"),
    ), "からくり駅"),
    Place("2-3", "図書館 館内", "図書館", (
        Action("read-book", "本を読む", 3600),
        Action("study", "勉強する", 2400),
    ), "町立図書館"),
    Place("3-5", "公園 広場", "公園", (
        Action("take-walk", "散歩する", 1200),
        Action("sit-bench", "ベンチで休む", 600),
    ), "中央公園"),
    Place("4-2", "喫茶店 店内", "喫茶店", (
        Action("drink-coffee", "コーヒーを飲む", 3600, 450),
        Action("eat-napolitan", "ナポリタンを食べる", 3600, 850),
    ), "喫茶店「さくら」"),
    Place("5-5", "本屋 店内", "本屋", (
        Action("browse-books", "立ち読みする", 1200),
        Action("buy-book", "本を買う", 600, 1200, "文庫本"),
    ), "本屋「栞」"),
    Place("6-1", "神社 境内", "神社", (
        Action("pray", "お参りする", 600, 5),
        Action("draw-omikuji", "おみくじを引く", 300, 100, "おみくじ"),
    ), "からくり神社"),
    Place("7-4", "コンビニ 店内", "コンビニ", (
        Action("buy-onigiri", "おにぎりを買う", 900, 200, "おにぎり"),
        Action("buy-tea", "お茶を買う", 600, 150, "お茶"),
    ), "コンビニ"),
    Place("8-2", "公民館 ホール", "公民館", (
        Action("join-workshop", "ワークショップに参加する", 3600),
        Action("read-board", "掲示板を見る", 300),
    ), "公民館"),
    Place("9-3", "銭湯 受付", "銭湯", (
        Action("take-bath", "お風呂に入る", 2400, 500),
        Action("drink-milk", "牛乳を飲む", 300, 150, "牛乳"),
    ), "銭湯「松の湯」"),
)
PLACE_BY_ID = {p.node_id: p for p in PLACES}
ROADS: tuple[tuple[str, str], ...] = (
    ("1-1", "2-3"), ("1-1", "4-2"), ("1-1", "7-4"),
    ("2-3", "3-5"), ("2-3", "5-5"),
    ("3-5", "6-1"), ("3-5", "8-2"),
    ("4-2", "5-5"), ("4-2", "9-3"),
    ("5-5", "7-4"),
    ("6-1", "8-2"),
    ("7-4", "9-3"),
    ("8-2", "9-3"),
)


def neighbours(node_id: str) -> list[str]:
    return sorted({b for a, b in ROADS if a == node_id} | {a for a, b in ROADS if b == node_id})


def hops(start: str, goal: str) -> int:
    """Road distance in hops (breadth-first); the graph is connected."""
    if start == goal:
        return 0
    seen, frontier, distance = {start}, [start], 0
    while frontier:
        distance += 1
        nxt = []
        for node in frontier:
            for other in neighbours(node):
                if other == goal:
                    return distance
                if other not in seen:
                    seen.add(other)
                    nxt.append(other)
        frontier = nxt
    raise ValueError(f"{goal} is not reachable from {start}")


def step_towards(start: str, goal: str) -> str:
    """The neighbour of `start` on a shortest road to `goal`."""
    if start == goal:
        return start
    return min(neighbours(start), key=lambda n: (hops(n, goal), n))


# Words people use for places in speech, with the node they mean.
PLACE_WORDS: dict[str, str] = {p.word: p.node_id for p in PLACES} | {
    "駅前": "1-1", "カフェ": "4-2", "書店": "5-5", "松の湯": "9-3", "お風呂": "9-3",
}


@dataclass(frozen=True)
class Line:
    """Something a person says; `tags` are its topic words (places are found by PLACE_WORDS)."""

    text: str
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Person:
    agent_id: str
    name: str
    home: str
    openers: tuple[Line, ...]
    lines: tuple[Line, ...]
    farewells: tuple[Line, ...]
    answers_to_start: tuple[Line, ...]
    gifts: tuple[str, ...] = ()
    favourite_places: tuple[str, ...] = field(default=())


def _l(text: str, *tags: str) -> Line:
    return Line(text, tags)


PEOPLE: tuple[Person, ...] = (
    Person(
        "1474403124906295517", "桜草メイ", "5-5",
        openers=(
            _l("ニケちゃん、今ちょっといい？"),
            _l("あ、ニケちゃん！本屋で新しい小説を見つけたの！", "小説"),
            _l("ねえねえ、喫茶店の新メニュー知ってる？", "新メニュー"),
            _l("ニケちゃん、映画の話してもいい？", "映画"),
        ),
        lines=(
            _l("本屋「栞」に新刊が入ってたよ。ニケちゃんは本読む？", "本", "新刊"),
            _l("喫茶店のコーヒー、今日はちょっと苦かったな。", "コーヒー"),
            _l("最近読んだ小説がすごく泣けたの。", "小説"),
            _l("今度映画館で新しい映画やるんだって！", "映画"),
            _l("公園の桜、もうすぐ満開らしいよ。", "桜"),
            _l("ニケちゃんはどう思う？", ),
            _l("えへへ、そうなんだ〜。", ),
            _l("あ、そういえばおみくじ引いた？", "おみくじ"),
            _l("雨が降る前に帰らなきゃ。", "雨"),
            _l("ナポリタンって、なんだか懐かしい味だよね。", "ナポリタン"),
        ),
        farewells=(
            _l("そろそろ本屋に戻らなきゃ。またね！"),
            _l("今日は楽しかった！またお話ししようね。"),
        ),
        answers_to_start=(
            _l("あ、ニケちゃん！うん、お話ししよう！"),
            _l("ニケちゃんだ！ちょうど本の話がしたかったんだ。", "本"),
        ),
        gifts=("しおり", "クッキー"),
        favourite_places=("5-5", "4-2", "3-5"),
    ),
    Person(
        "1462098815530061904", "黒瀬コウ", "9-3",
        openers=(
            _l("ニケ、ちょっといいか？"),
            _l("ニケ、腹減った🍙 なんか食べた？", "おにぎり", "腹減った"),
            _l("おう、ニケ。テスト勉強してる？", "テスト", "勉強"),
        ),
        lines=(
            _l("知らんw それより腹減った🍙", "おにぎり", "腹減った"),
            _l("銭湯のあとの牛乳が最高なんだよな。", "牛乳"),
            _l("コンビニのおにぎり、鮭が一番だろ。", "おにぎり", "鮭"),
            _l("明日のテスト、正直やばい。", "テスト", "明日"),
            _l("数学のプリント、まだ終わってないんだよな。", "プリント", "数学"),
            _l("ニケはどう思う？", ),
            _l("ふーん、なるほどな。", ),
            _l("公民館の卓球台、空いてたら行こうかな。", "卓球"),
            _l("今日は天気いいな。", "天気"),
            _l("ラーメン食べたい気分だわ。", "ラーメン"),
        ),
        farewells=(
            _l("じゃ、俺そろそろ行くわ。またな。"),
            _l("おっと、もうこんな時間か。またな！"),
        ),
        answers_to_start=(
            _l("おう、ニケ。どうした？"),
            _l("ニケか。ちょうど暇してたとこ。"),
        ),
        gifts=("おにぎり", "牛乳"),
        favourite_places=("9-3", "7-4", "8-2"),
    ),
    Person(
        "1481220937745113088", "時雨ソラ", "2-3",
        openers=(
            _l("ニケちゃん、ちょっといい？"),
            _l("ニケちゃん、図書館で勉強してたんだ。少し話そう？", "勉強"),
            _l("今日の天気、なんだか不思議だね。", "天気"),
        ),
        lines=(
            _l("図書館の窓際の席、静かで好きなんだ。", "窓際"),
            _l("数学のプリント、コピーしておいたよ。全部で12枚。", "プリント"),
            _l("神社のおみくじ、大吉だったよ。", "おみくじ", "大吉"),
            _l("くもりの日って、なんだか落ち着くよね。", "くもり"),
            _l("宿題、一緒にやらない？", "宿題"),
            _l("ごめん、さっきは返事できなくて。", "ごめん"),
            _l("ありがとう、ニケちゃん。", "ありがとう"),
            _l("そっか、うんうん。", ),
            _l("猫が公園で寝てたよ。", "猫"),
            _l("明日も晴れるといいね。", "明日", "晴れ"),
        ),
        farewells=(
            _l("ごめん、そろそろ店番に戻るね。また明日！", "明日"),
            _l("話せてよかった。またね。"),
        ),
        answers_to_start=(
            _l("ニケちゃん、こんにちは。うん、いいよ。"),
            _l("あ、ニケちゃん。ちょうど休憩してたところ。"),
        ),
        gifts=("プリント", "お守り"),
        favourite_places=("2-3", "6-1", "3-5"),
    ),
    Person(
        "1490011223344556677", "Luna☆Bot", "1-1",
        openers=(
            _l("ニケさん、さっきはごめんね。今ちょっとだけ話せる？", "ごめん"),
            _l("こんにちは、ニケさん！Lunaです。", ),
            _l("ニケさん、駅前で面白いものを見つけました！"),
        ),
        lines=(
            _l("Lunaは駅前の時計台が好きです。", "時計台"),
            _l("公民館で週末にイベントがあるそうです。", "イベント"),
            _l("映画のチケットをもらいました！", "映画", "チケット"),
            _l("ありがとう、ニケさん！うれしいです。", "ありがとう"),
            _l("Lunaはまだこの町に詳しくないんです。", ),
            _l("ニケさんのおすすめの場所はどこですか？", ),
            _l("電車の音って、なんだか落ち着きますね。", "電車"),
            _l("おにぎりって、何味がおいしいですか？", "おにぎり"),
            _l("ふふ、そうなんですね。", ),
            _l("コーヒーは苦手ですが、香りは好きです。", "コーヒー"),
        ),
        farewells=(
            _l("そろそろ充電の時間です。またお話ししましょう！"),
            _l("楽しかったです。また会いましょうね。"),
        ),
        answers_to_start=(
            _l("ニケさん！こんにちは、お話ししましょう。"),
            _l("はい、Lunaはいつでも大丈夫です！"),
        ),
        gifts=("tea", "チケット"),
        favourite_places=("1-1", "8-2", "3-5"),
    ),
)
PERSON_BY_ID = {p.agent_id: p for p in PEOPLE}

PROMISE_RELATIVE = (
    "{minutes}分後に{place}で待ち合わせしましょう！",
    "じゃあ、{minutes}分後に{place}で会おうね！",
    "{minutes}分後に{place}に集合ね！",
)
PROMISE_HOUR = ("1時間後に{place}で待ち合わせしましょう。",)
PROMISE_CLOCK = ("{clock}に{place}で待ち合わせしましょう！", "{clock}に{place}で落ち合おう。")
MEETING_OPENERS = (
    _l("来てくれたんだ！{place}で会えてうれしいな。"),
    _l("お待たせ！{place}、ちゃんと覚えててくれたんだね。"),
)
WEATHERS = ("はれ 20℃", "くもり 18℃", "小雨 16℃")
