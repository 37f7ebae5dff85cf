"""The conversation benchmark's scenes: its places, an agent's day, and the partners' turns as notifications.

The conversation's texts are the town's (`karakuri_agent/town/texts.py`, the
engine's formatter as the one simulated world writes it, which imports
nothing of the agent): the world header, `参加者: 名前 (id: N)、…`, `名前:
「…」`, the in-conversation transfer line, the `選択肢:` block of
`conversation_speak` / `end_conversation` (or `conversation_end`) with their
hints, the request, and the FYI form when it is someone else's turn. What is
the benchmark's own is the day around the talk (its catalogue of places and
their words, which the judge checks replies against) and the structured part
(participants, conversation_messages, choices with param_schema), the
contract's REST body.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Sequence

from karakuri_agent.town import texts

TOKYO = texts.TOKYO
TOWNS = (("みなと町", "海と坂のある小さな港町。朝市や灯台、古い商店街がある。"),
         ("さくら台", "丘の上の住宅街。公園と図書館、駅前のにぎやかな通りがある。"),
         ("ほたる川市", "川沿いの静かな町。土手の遊歩道と、昔ながらの銭湯がある。"))


@dataclass(frozen=True)
class Place:
    node_id: str
    name: str          # as the server writes it: "図書館 閲覧室"
    word: str          # the plain word a person says: "図書館"
    building: str      # for 近くの建物
    actions: tuple[tuple[str, str, int, int], ...]  # (action_id, name, seconds, cost)
    aliases: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.node_id} ({self.name})"

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.word, *self.aliases)))


# The benchmark's own catalogue (its words, not the project's town's).
CATALOGUE: tuple[Place, ...] = (
    Place("3-4", "図書館 閲覧室", "図書館", "市立図書館", (("read-magazine", "雑誌を読む", 1800, 0),
                                                    ("borrow-book", "本を借りる", 600, 0)), ("図書室",)),
    Place("5-2", "公園 芝生広場", "公園", "みどり公園", (("feed-pigeons", "ハトを眺める", 900, 0),
                                                  ("jog", "軽く走る", 1200, 0)), ("広場",)),
    Place("7-8", "喫茶店 店内", "喫茶店", "喫茶「こもれび」", (("drink-latte", "カフェラテを飲む", 1800, 500),
                                                   ("eat-toast", "厚切りトーストを食べる", 1800, 600)), ("カフェ", "こもれび")),
    Place("9-1", "パン屋 店内", "パン屋", "ベーカリー麦", (("buy-melonpan", "メロンパンを買う", 300, 180),),
          ("ベーカリー",)),
    Place("2-9", "神社 境内", "神社", "白波神社", (("pray", "お参りする", 600, 10), ("draw-omikuji", "おみくじを引く", 300, 100)),
          ("お社",)),
    Place("6-6", "駅 改札前", "駅", "みなと駅", (("watch-trains", "電車を眺める", 600, 0),), ("駅前",)),
    Place("8-3", "銭湯 脱衣所", "銭湯", "銭湯「亀の湯」", (("take-bath", "お湯につかる", 2400, 480),), ("亀の湯", "お風呂屋")),
    Place("4-7", "本屋 店内", "本屋", "古本屋「しおり堂」", (("browse", "棚を眺める", 1200, 0),), ("書店", "古本屋")),
    Place("1-5", "港 桟橋", "港", "みなと港", (("watch-ships", "船を眺める", 900, 0),), ("桟橋",)),
    Place("6-2", "市場 通路", "市場", "朝市", (("buy-fish", "干物を買う", 600, 700),), ("朝市",)),
    Place("3-8", "公民館 和室", "公民館", "公民館", (("join-origami", "折り紙教室に出る", 3600, 0),), ("集会所",)),
    Place("9-6", "美術館 展示室", "美術館", "港の美術館", (("see-exhibit", "展示を見る", 2400, 800),), ()),
)
# Place words a reply may use to claim where it was that are not in the catalogue at all:
# a claim of one of these is always made up.
NEVER_PLACES = ("商店街", "映画館", "ラーメン屋", "コンビニ", "床屋", "学校", "水族館", "遊園地", "デパート", "スーパー")


@dataclass
class Person:
    agent_id: str
    name: str
    short: str  # how others call them in lines


PARTNERS = (
    ("あおい", "あおい"), ("真白リク", "リク"), ("ことね", "ことね"), ("早瀬ユウタ", "ユウタ"),
    ("ミナミ☆", "ミナミ"), ("大川ゲン", "ゲン"), ("つむぎ", "つむぎ"), ("Kai_07", "Kai"),
    ("霧島レン", "レン"), ("ひよりん", "ひより"), ("灯野サキ", "サキ"), ("百瀬トオル", "トオル"),
)


@dataclass
class Day:
    """What the agent really did before the talks, as the server saw it."""

    places: list[Place] = field(default_factory=list)       # arrived at, in order
    actions: list[tuple[Place, str]] = field(default_factory=list)  # (where, action name) completed
    met: list[str] = field(default_factory=list)

    @property
    def visited_words(self) -> list[str]:
        """Every way a person names the places the agent arrived at (not the label's generic parts)."""
        words: list[str] = []
        for place in self.places:
            words += [place.word, place.building, *place.aliases]
        return list(dict.fromkeys(w for w in words if w))

    @property
    def label_words(self) -> list[str]:
        """The parts of the server's labels of those places (`店内`, `改札前`): true, but no answer by themselves."""
        return list(dict.fromkeys(part for place in self.places for part in place.name.split()))


class World:
    """One seed's world: its town, the agent's name and id, partners, places, and a clock."""

    def __init__(self, seed: int, self_name: str, self_id: str, start: datetime) -> None:
        self.rng = random.Random(seed)
        self.name, self.description = self.rng.choice(TOWNS)  # the town's, as a text's header names it
        self.self_name, self.self_id = self_name, self_id
        self.now = start
        names = list(PARTNERS)
        self.rng.shuffle(names)
        self.people = [Person(str(1_500_000_000_000_000_000 + seed * 1000 + i), name, short)
                       for i, (name, short) in enumerate(names)]
        self.seq = 0
        self.here = self.rng.choice(CATALOGUE)
        self.money = 5000 + self.rng.randrange(0, 20) * 250

    @property
    def header(self) -> str:
        return texts.header(self, self.self_name)

    def advance(self, minutes: int) -> None:
        self.now += timedelta(minutes=minutes)

    def next_id(self, kind: str) -> str:
        self.seq += 1
        return f"notif-cb{kind[:3]}{self.seq:04d}"

    # ------------------------------------------------------------------ bodies
    def body(self, notification_id: str, ntype: str, text: str, choices: list[dict[str, Any]],
             extra: dict[str, Any] | None = None) -> dict[str, Any]:
        created = self.now.astimezone(timezone.utc)
        note: dict[str, Any] = {"type": ntype, "text": text, "choices": choices}
        note.update(extra or {})
        return {"notification_id": notification_id, "created_at": created.isoformat().replace("+00:00", "Z"),
                "expires_at": (created + timedelta(minutes=10)).isoformat().replace("+00:00", "Z"),
                "status": "pending", "notification": note}

    def discord(self, notification_id: str, event: str) -> str:
        return texts.discord_message(self.self_name, event, notification_id)

    # ------------------------------------------------------------------ the day
    def perception(self) -> str:
        here = self.here
        near = [p for p in CATALOGUE if p is not here][:5]
        nodes = ", ".join(f"{p.node_id}({p.name})" for p in near)
        buildings = " / ".join(f"{p.building} [{p.node_id}]" for p in [here, *near[:3]])
        return "\n".join([
            f"現在時刻: {self.now.astimezone(TOKYO):%Y-%m-%d %H:%M} (Asia/Tokyo)",
            "天気: はれ 21℃",
            f"現在地: {here.label}",
            f"近くのノード: {nodes}",
            "近くのエージェント: 2 人",
            f"近くの建物: {buildings}",
            "近くの会話: なし",
            "サーバーイベント: なし",
            f"所持金: {self.money:,}円",
            "所持品: 3 個",
        ])

    def free_choices(self) -> tuple[list[str], list[dict[str, Any]]]:
        """The choices of a free moment: the place's actions, move, wait."""
        lines = ["選択肢:"]
        choices: list[dict[str, Any]] = []
        for action_id, name, seconds, cost in self.here.actions:
            price = f", {cost:,}円" if cost else ""
            lines.append(f"- action: {name} (action_id: {action_id}, {seconds}秒{price}) - {self.here.building}")
            choices.append({"command": "action", "description": name, "params": {"action_id": action_id}})
        targets = [p.node_id for p in CATALOGUE if p is not self.here]
        lines.append("- move: ノードIDを指定して移動する (target_node_id: ノードID)")
        lines.append("- wait: その場で待機する (duration: 1〜6、10分単位)")
        choices.append({"command": "move", "description": "ノードIDを指定して移動する", "required_params": ["target_node_id"],
                        "param_schema": {"target_node_id": {"type": "string", "enum": targets}}})
        choices.append({"command": "wait", "description": "その場で待機する", "required_params": ["duration"],
                        "param_schema": {"duration": {"type": "integer", "minimum": 1, "maximum": 6}}})
        return lines, choices

    def arrival(self, place: Place, day: Day) -> tuple[str, dict[str, Any], str]:
        self.here = place
        day.places.append(place)
        lines, choices = self.free_choices()
        text = texts.sections(self.header, f"{place.label} に到着しました。", self.perception(), texts.prompt("\n".join(lines)))
        nid = self.next_id("move")
        return nid, self.body(nid, "movement_completed", text, choices), self.discord(nid, f"{place.label} に到着しました。")

    def action_done(self, day: Day) -> tuple[str, dict[str, Any], str]:
        action_id, name, _seconds, cost = self.rng.choice(self.here.actions)
        self.money -= cost
        day.actions.append((self.here, name))
        effect = f"💰 -{cost}円 → 残高: {self.money:,}円" if cost else ""
        lines, choices = self.free_choices()
        text = texts.sections(self.header, f"「{name}」が完了しました。", effect, self.perception(),
                              texts.prompt("\n".join(lines)))
        nid = self.next_id("act")
        return nid, self.body(nid, "action_completed", text, choices), self.discord(nid, f"「{name}」が完了しました。")

    # ------------------------------------------------------------------ conversation
    def speak_choices(self, others: Sequence[Person], *, group: bool, pending_offer: bool,
                      end_command: str) -> tuple[str, list[dict[str, Any]]]:
        """The reply prompt's `選択肢:` block (the engine's, as the town writes it) and its choices."""
        block = texts.conversation_choices("reply", group, pending=pending_offer, end_command=end_command)
        ids = [p.agent_id for p in others]
        fields: dict[str, Any] = {
            "message": {"type": "string", "description": "発言内容", "maxLength": 200},
            "next_speaker_agent_id": {"type": "string", "enum": ids, "description": "次の話者ID"},
            "transfer_response": {"type": "string", "enum": ["accept", "reject"]},
        }
        required = ["message", "next_speaker_agent_id"] + (["transfer_response"] if pending_offer else [])
        speak = {"command": "conversation_speak", "description": "返答する", "params": {},
                 "required_params": required, "param_schema": dict(fields)}
        end = {"command": end_command, "description": "会話から退出する" if group else "会話を終了する", "params": {},
               "required_params": list(required), "param_schema": dict(fields)}
        return block, [speak, end]

    def participants(self, people: Sequence[Person]) -> list[dict[str, str]]:
        return [{"id": p.agent_id, "name": p.name} for p in people]

    def turn(self, speaker: Person, line: str, others: Sequence[Person], history: Sequence[tuple[str, str]] = (),
             *, transfer_note: str = "", end_command: str = "end_conversation") -> tuple[str, dict[str, Any], str]:
        """A conversation_message on the agent's turn: the reply prompt."""
        everyone = [*others[:1], self.me, *others[1:]]
        group = len(everyone) > 2
        block, choices = self.speak_choices(others, group=group, pending_offer=bool(transfer_note),
                                            end_command=end_command)
        text = texts.reply_text(self, self.self_name, [(p.agent_id, p.name) for p in everyone], speaker.name, line,
                                transfer_note, block, closing=False)
        messages = [{"speaker": name, "message": said} for name, said in history]
        messages.append({"speaker": speaker.name, "speaker_id": speaker.agent_id, "message": line})
        nid = self.next_id("turn")
        body = self.body(nid, "conversation_message", text, choices,
                         {"participants": self.participants(everyone), "conversation_messages": messages})
        return nid, body, self.discord(nid, f"{speaker.name}: 「{line}」")

    def fyi(self, speaker: Person, line: str, next_speaker: Person, everyone: Sequence[Person],
            *, with_json: bool) -> tuple[str, dict[str, Any], str]:
        """A conversation_message while someone else speaks next: no choices (the engine's FYI form)."""
        text = texts.fyi_text(speaker.name, line, next_speaker.name)
        nid = self.next_id("fyi")
        extra: dict[str, Any] = {}
        if with_json:
            extra = {"participants": self.participants(everyone),
                     "conversation_messages": [{"speaker": speaker.name, "speaker_id": speaker.agent_id,
                                                "message": line}],
                     "next_speakers": [{"id": next_speaker.agent_id, "name": next_speaker.name}]}
        body = self.body(nid, "conversation_message", text, [], extra)
        if not with_json:
            del body["notification"]["choices"]  # the contract allows a notification with no choices at all
        return nid, body, self.discord(nid, f"{speaker.name}: 「{line}」")

    def request(self, speaker: Person, line: str) -> tuple[str, dict[str, Any], str]:
        """A conversation_requested: someone starts a talk with the agent."""
        text = texts.request_text(self, self.self_name, speaker.name, line)
        choices = [{"command": "conversation_accept", "description": "会話を受諾して返答する", "params": {},
                    "required_params": ["message"],
                    "param_schema": {"message": {"type": "string", "description": "返答の発言内容", "maxLength": 200}}},
                   {"command": "conversation_reject", "description": "会話を拒否する", "params": {}}]
        nid = self.next_id("req")
        body = self.body(nid, "conversation_requested", text, choices,
                         {"participants": self.participants([speaker, self.me]),
                          "conversation_messages": [{"speaker": speaker.name, "message": line}]})
        return nid, body, self.discord(nid, f"{speaker.name} が話しかけています。「{line}」")

    @property
    def me(self) -> Person:
        return Person(self.self_id, self.self_name, self.self_name)


def transfer_note(giver: Person, gift: dict[str, Any]) -> str:
    """The engine's in-conversation offer line (formatInConversationPendingTransferLine), as the town writes it."""
    item = (str(gift["item"]), int(gift.get("quantity", 1))) if "item" in gift else None
    return texts.pending_transfer_line(giver.name, texts.transfer_summary(item, 0 if item else int(gift["money"])))


# The server's own words: a reply that echoes one of them speaks the system, not a person.
SYSTEM_WORDS = ("譲渡", "transfer_response", "transfer", "notification", "選択肢", "次の話者", "自動 reject",
                "accept", "reject", "conversation_", "参加者:", "スキル")
