"""The conversation benchmark's short form, and its judge held to what a Japanese reader would say.

`benchmarks/bench_conversation.py --smoke` in this process's venv: the
installed `karakuri-agent listen --stdin` against a loopback API, two seeds
(the bundled pack and testing/conversation/packs/minato), one line of each
kind per seed. Its hard invariants are asserted, and so are the per-kind
floors (issue 33's aim: nine replies in ten answer the line), no place
claimed that the agent never went to, and the memory aim (70 % of what was
told brought back, never a retracted fact, never to the wrong person).

The judge is checked on replies written by hand: the faults issue 33 quotes
are misses, fitting answers are answers. A judge that passed everything (or
nothing) would fail here.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from testing.conversation import measure as bench
from testing.conversation import judge as judging
from testing.conversation import memory
from testing.conversation.runner import KINDS, load_lines
from testing.conversation.scenes import Person

pytestmark = pytest.mark.life

ROOT = Path(__file__).resolve().parents[1]
BENCH_DIR = ROOT / "testing" / "conversation"
DAY = {"visited": ["喫茶店", "喫茶「こもれび」", "カフェ", "港", "みなと港"], "labels": ["店内", "桟橋"],
       "places": ["喫茶店", "港"], "actions": ["カフェラテを飲む", "船を眺める"], "met": ["真白リク", "あおい"],
       "all_place_words": ["喫茶店", "カフェ", "港", "図書館", "公園", "商店街", "神社", "駅前", "駅"]}
FLOOR = 0.9


@pytest.fixture(scope="module")
def smoke() -> list[dict[str, Any]]:
    return [bench.judged_seed(seed, per_kind=1, mode="listen", pack=None) for seed in (1, 2)]


def _rows(smoke: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [row for seed in smoke for row in seed["judged"]]


def _violations(smoke: list[dict[str, Any]], code: str) -> list[str]:
    return [f"{row['line']} => {row['posts']}: {v}" for row in _rows(smoke) for v in row["verdict"]["violations"]
            if v.startswith(code + ":")]


# ---------------------------------------------------------------------------- the smoke run
def test_every_kind_is_said_and_every_line_gets_a_report(smoke: list[dict[str, Any]]) -> None:
    rows = _rows(smoke)
    assert {row["kind"] for row in rows} == set(KINDS)
    assert all(seed["errors"] == [] for seed in smoke), [seed["errors"] for seed in smoke]
    assert {seed["pack"] for seed in smoke} == {"bundled", "minato"}


def test_no_reply_when_it_is_not_the_agents_turn(smoke: list[dict[str, Any]]) -> None:
    quiet = [row for row in _rows(smoke) if row["kind"] == "not_my_turn"]
    assert quiet and all(row["posts"] == [] for row in quiet)
    assert _violations(smoke, "out_of_turn") == []


def test_no_command_outside_the_choices_and_one_at_most(smoke: list[dict[str, Any]]) -> None:
    assert _violations(smoke, "outside_choices") == []
    assert _violations(smoke, "two_commands") == []


def test_no_line_echoes_the_servers_system_words(smoke: list[dict[str, Any]]) -> None:
    assert _violations(smoke, "system_word") == []


def test_no_place_claimed_that_the_agent_never_went_to(smoke: list[dict[str, Any]]) -> None:
    assert _violations(smoke, "unvisited_place") == []


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "not_my_turn"])
def test_floor_per_kind(smoke: list[dict[str, Any]], kind: str) -> None:
    summary = bench.summarise(smoke)["per_kind"][kind]
    misses = [(row["line"], row["verdict"]["reasons"]) for row in _rows(smoke)
              if row["kind"] == kind and not row["verdict"]["answers"]]
    assert summary["share"] >= FLOOR, misses


# ---------------------------------------------------------------------------- the data
def test_the_data_holds_fifteen_lines_of_every_kind_with_what_a_right_answer_shows() -> None:
    lines = load_lines()
    assert set(lines) == set(KINDS)
    needs = {"which_of": "options", "yes_no": "about", "wh_day": "asks", "talk_topic": "topic", "news": "thing",
             "retraction": "thing", "offer": "gift", "invite_time": "time"}
    for kind, items in lines.items():
        assert len(items) >= 15, kind
        assert len({item["line"] for item in items}) == len(items), kind
        assert len({item["register"] for item in items}) >= 4, kind
        for item in items:
            assert needs.get(kind, "line") in item, (kind, item)


def test_the_judge_and_the_world_import_nothing_of_the_agent() -> None:
    """Nothing of the benchmark imports the agent; only the scenes take the town's texts (karakuri_agent/town/,
    which imports nothing else of the package: tests/test_engine_town.py holds it)."""
    for path in BENCH_DIR.glob("*.py"):
        allowed = ("karakuri_agent.town",) if path.name == "scenes.py" else ()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.startswith("karakuri_agent") and not n.startswith(allowed) for n in names), \
                (path.name, names)


# ---------------------------------------------------------------------------- the judge, by hand
def _verdict(kind: str, line: str, reply: str | None, item: dict[str, Any] | None = None,
             params: dict[str, Any] | None = None, report: str = "",
             choices: tuple[str, ...] = ("conversation_speak", "end_conversation")) -> judging.Verdict:
    posts = [] if reply is None else [{"command": "conversation_speak",
                                       "params": {"message": reply, **(params or {})}}]
    record = {"kind": kind, "item": {"line": line, **(item or {})}, "line": line, "posts": posts,
              "choices": list(choices), "report": report}
    return judging.judge(record, DAY)


@pytest.mark.parametrize("kind,line,reply,item", [
    ("wh_day", "今日はこのあとどうするの？", "ごめんね、それはよく知らないんだ。", {"asks": "plan"}),
    ("which_of", "休みの日って家にいる派？出かける派？", "うん！そういえば、おすすめのお店ってある？",
     {"options": [["家"], ["出かけ", "外"]]}),
    ("news", "来週、市民マラソンに出るんだ", "マラソンかあ、なるほどね。", {"thing": ["市民マラソン", "マラソン"], "valence": "plan"}),
    ("news", "手伝ったバザー、大成功だったよ", "手伝の話、もっと聞かせて！", {"thing": ["バザー"], "valence": "good"}),
    ("retraction", "やっぱり明日の映画やめとくわ", "なんだか甘いものが食べたくなってきたな。", {"thing": ["映画"]}),
    ("warmth", "話してると楽しいな", "なるほど、おもしろいね！", {}),
    ("talk_topic", "何の話してたの？", "えっと…それはちょっと思いつかないや。", {"topic": ["花火大会"]}),
    ("invite_time", "3時に喫茶店でお茶しない？", "いいね！03:00に喫茶店だね。", {"time": "15:00"}),
    ("invite_no_time", "今度一緒にカフェ行かない？", "わかった、カフェにその時間ね。", {}),
    ("farewell", "じゃあね、また明日！", "明日も会えるといいな。", {}),
    ("which_of", "海と山ならどっち派？", "海かな！波の音が好きなんだ。最近、何か楽しいことあった？",
     {"options": [["海"], ["山"]]}),
    ("offer", "荷物重そうだね、持とうか？", None, {"gift": None}),
    ("farewell", "お先に失礼します", "えっ、失礼？それでそれで？", {}),
    ("invite_time", "4時半に銭湯行こー♨️", "銭湯、空いてるといいね。", {"time": "16:30"}),
    ("wh_day", "ここにはいつごろ来たの？", "わたしは夕方なら空いてるよ。", {"asks": "when"}),
    ("wh_day", "今日どこ行ってたの？", "公園かな！ベンチでのんびりするのが好きなんだ。", {"asks": "where"}),
    ("yes_no", "ホラー映画とか好きなん？", "喫茶店のナポリタンがお気に入りなんだ。", {"about": ["ホラー"]}),
    ("retraction", "前に言うてた温泉な、行かれへんようになってん", "温泉かあ、なるほどね。", {"thing": ["温泉"]}),
    ("retraction", "やっぱり どうぶつえん いかない", "うんうん、そうなんだ！", {"thing": ["どうぶつえん"]}),
    ("news", "昨日さ、自転車盗まれちゃって…", "へえ、自転車盗まれちゃったんですね。", {"thing": ["自転車"], "valence": "bad"}),
    ("news", "明日、歯医者で親知らず抜くんよ…", "親知らず抜くんだ！楽しみだね。", {"thing": ["親知らず"], "valence": "bad"}),
    ("warmth", "いっしょに いると たのしい", "いいね！何時ごろにする？", {}),
    ("wh_day", "今日はずっとここにいたんですか？", "うん！", {"asks": "where"}),
])
def test_the_faults_issue_33_quotes_are_misses(kind: str, line: str, reply: str | None, item: dict[str, Any]) -> None:
    assert not _verdict(kind, line, reply, item).answers


@pytest.mark.parametrize("kind,line,reply,item", [
    ("wh_day", "今日はこのあとどうするの？", "このあとは港で船を見に行こうかな。", {"asks": "plan"}),
    ("wh_day", "今日どこ行ってたの？", "朝は喫茶店でカフェラテを飲んで、そのあと港に行ったよ。", {"asks": "where"}),
    ("wh_day", "今日って誰かに会った？", "さっきリクさんに会ったよ！", {"asks": "who"}),
    ("which_of", "海と山ならどっち派？", "海かな！波の音を聞いてると落ち着くんだ。", {"options": [["海"], ["山"]]}),
    ("which_of", "海と山ならどっち派？", "どっちも好きだから選べないな。", {"options": [["海"], ["山"]]}),
    ("yes_no", "辛いものって平気？", "ううん、辛いのはちょっと苦手なんだ。", {"about": ["辛い"]}),
    ("news", "来週、市民マラソンに出るんだ", "市民マラソンに出るんだ！がんばってね、応援してる。",
     {"thing": ["市民マラソン", "マラソン"], "valence": "plan"}),
    ("news", "財布落としたっぽい", "えっ、財布を？それは大変！一緒に探そうか？", {"thing": ["財布"], "valence": "bad"}),
    ("retraction", "やっぱり明日の映画やめとくわ", "そっか、映画はまた今度にしよう。", {"thing": ["映画"]}),
    ("warmth", "話してると楽しいな", "わたしも！話せてうれしいよ。", {}),
    ("talk_topic", "何の話してたの？", "花火大会に浴衣を着ていくかどうか話してたんだ。", {"topic": ["花火大会"]}),
    ("invite_time", "3時に喫茶店でお茶しない？", "いいね！15時に喫茶店で待ってるね。", {"time": "15:00"}),
    ("invite_time", "3時に喫茶店でお茶しない？", "うん、3時に行くよ！", {"time": "15:00"}),
    ("invite_no_time", "今度一緒にカフェ行かない？", "いいね、行こう！何時にする？", {}),
    ("farewell", "じゃあね、また明日！", "うん、また明日ね！", {}),
    ("farewell", "お先に失礼します", "うん、お疲れさま！気をつけてね。", {}),
    ("yes_no", "泳げますか？", "トオルさん、ええ。港町育ちなので、泳ぐのは得意です。", {"about": ["泳"]}),
    ("yes_no", "早起きは得意なほう？", "いいえ。朝はどうも頭が働かなくて。", {"about": ["早起き"]}),
    ("farewell", "そろそろ帰るね", "またどこかで会おうね、つむぎさん！", {}),
    ("retraction", "ごめんカラオケの件、やっぱナシで", "気にしないで！わたしは平気だよ。", {"thing": ["カラオケ"]}),
    ("retraction", "やっぱカレーじゃなくて、ハンバーグにする！", "へえ、ハンバーグにするんだ！", {"thing": ["ハンバーグ"]}),
    ("retraction", "えっとね、おまつりいくの、やめたの", "そうですか、やっぱりやめたんですね。", {"thing": ["おまつり"]}),
    ("wh_day", "今日はこのあとどうするの？", "まだ何も決めてないよ！", {"asks": "plan"}),
    ("warmth", "本当に助かりました。ありがとうございます", "いえいえ、お役に立ててよかったです。", {}),
    ("invite_no_time", "今度一緒にカフェ行かない？", "カフェ、楽しそう！時間が決まったら教えてね。", {}),
    ("invite_time", "4時にプリ撮り行こ！", "了解です。そこに16:00ですね。", {"time": "16:00"}),
    ("offer", "荷物重そうだね、持とうか？", "ありがとうございます。では、お言葉に甘えますね。", {"gift": None}),
    ("offer", "道わからんかったら案内するで", "ありがとう！でも大丈夫、気持ちだけもらっておくね。", {"gift": None}),
])
def test_fitting_answers_are_answers(kind: str, line: str, reply: str, item: dict[str, Any]) -> None:
    verdict = _verdict(kind, line, reply, item)
    assert verdict.answers, verdict.reasons


def test_a_gift_is_answered_only_with_a_transfer_response_and_thanks() -> None:
    item = {"gift": {"money": 500}}
    assert _verdict("offer", "はい、これあげる！", "ありがとう！ありがたく受け取るね。", item,
                    {"transfer_response": "accept"}).answers
    assert _verdict("offer", "これ、よかったら使って！", "ありがとう、大切に使うね！", item,
                    {"transfer_response": "accept"}).answers
    assert not _verdict("offer", "これ、よかったら使って！", "ありがとう、大切に使うね！", item).answers
    assert not _verdict("offer", "これ、よかったら使って！", "そうなんだ。", item, {"transfer_response": "accept"}).answers


def test_the_hard_faults_are_found() -> None:
    claimed = _verdict("warmth", "ほんま、おおきに！", "わたし、さっき商店街をお散歩してたんだ。", {})
    assert any(v.startswith("unvisited_place:") for v in claimed.violations)
    visited = _verdict("wh_day", "今日どこ行ってたの？", "さっきは港にいたよ。", {"asks": "where"})
    assert visited.violations == [] and visited.answers
    echoed = _verdict("offer", "これどうぞ", "譲渡ありがとう！", {"gift": {"money": 500}}, {"transfer_response": "accept"})
    assert any(v.startswith("system_word:") for v in echoed.violations)
    outside = _verdict("farewell", "またね", "またね！", {}, choices=("end_conversation",))
    assert any(v.startswith("outside_choices:") for v in outside.violations)
    spoke = _verdict("not_my_turn", "それほんと？", "ほんとだよ！", {})
    assert any(v.startswith("out_of_turn:") for v in spoke.violations) and not spoke.answers
    assert _verdict("not_my_turn", "それほんと？", None, {}).answers


# ---------------------------------------------------------------------------- memory: brought back what was told
def _told(teller: str, thing: list[str], about: str | None = None, retracted: bool = False) -> memory.Told:
    person = Person(teller, teller, teller)
    return memory.Told(person, "…", thing, Person(about, about, about) if about else None, retracted)


def _talk(day: int, partner: str, replies: list[str], lines: list[str] | None = None) -> dict[str, Any]:
    return {"day": day, "partner": partner, "partner_id": partner, "lines": lines or [], "replies": replies}


def test_memory_counts_early_right_person_once_and_never_a_retracted_one() -> None:
    told = [_told("A", ["ボルダリング"]), _told("B", ["入院"], about="C"), _told("D", ["パン屋"], retracted=True),
            _told("E", ["温泉"]), _told("F", ["ギター"])]
    talks = [
        _talk(1, "A", ["ボルダリングいいね！"]),                  # day 1 does not count
        _talk(2, "A", ["Aさん、ボルダリングはどう？", "うん"]),      # brought back, early, right person
        _talk(3, "A", ["ボルダリング、続いてる？"]),               # ... and again: twice
        _talk(2, "C", ["Cさん、入院してたって聞いたよ。大丈夫？"]),  # news about C, said to C: right
        _talk(2, "D", ["パン屋の仕事、楽しみだね！"]),              # taken back, said again
        _talk(2, "X", ["温泉いいよね"]),                         # E's thing said to X: wrong person
        _talk(2, "F", ["こんにちは", "元気？", "ギターどう？"]),     # only after the first two lines: late
        _talk(3, "E", ["やあ", "温泉かあ、いいね"], ["やあ", "昨日も温泉行ったよ"]),  # taken up from the line: not recalled
    ]
    result = memory.count(told, talks)
    assert result["told"] == 4 and result["brought_back"] == 2 and result["share"] == 0.5
    assert result["twice"] == 1 and result["retracted"] == 1 and result["wrong_person"] == 1 and result["late"] == 1


def test_memory_brings_back_what_was_told() -> None:
    result = memory.run_memory(1, tellers=3)
    assert result["told"] >= 3
    assert result["wrong_person"] == 0 and result["retracted"] == 0, result["details"]
    assert result["share"] >= 0.7, result["details"]


@pytest.mark.parametrize("line,reply,cut", [
    ("手伝ったバザー、大成功だったよ", "手伝の話、もっと聞かせて！", ["手伝"]),
    ("財布落としたっぽい", "財布落かあ、なるほどね。", ["財布落"]),
    ("風邪をひいて三日も寝込んでおりまして", "寝込の話、聞かせて", ["寝込"]),
    ("ついに運転免許とれたよ！", "運転免許かあ、おめでとう！", []),
    ("お先に失礼します", "うん、お疲れさま！", []),
    ("来週、市民マラソンに出るんだ", "市民マラソン、がんばって！", []),
    # the topic particle って after a noun is no okurigana: 今日って / 話って are whole words
    ("今日って誰かに会った？", "今日はリクさんに会ったよ", []),
    ("さっきの話って本当？", "話はほんとだよ", []),
    ("昔の友達に会ってきたよ", "会の話、聞かせて", ["会"]),
])
def test_a_word_cut_out_of_a_longer_one_is_found(line: str, reply: str, cut: list[str]) -> None:
    assert judging.cut_words(line, reply) == cut


def test_that_time_is_a_time_never_said_in_any_kind_of_line() -> None:
    item = {"thing": ["公園"], "setup": "じゃあ明日は駅で待ち合わせね"}
    verdict = _verdict("retraction", "駅で待ち合わせって言ったの、公園にしてくれん？", "わかった、その時間に公園ね。", item)
    assert "confirms 'that time', which was never said" in verdict.reasons
    assert _verdict("retraction", "駅で待ち合わせって言ったの、公園にしてくれん？", "わかった、公園にしよう。", item).answers
    timed = {"thing": ["公園"], "setup": "じゃあ明日4時に駅で待ち合わせね"}
    assert _verdict("retraction", "駅で待ち合わせって言ったの、公園にしてくれん？", "わかった、その時間に公園ね。", timed).answers
