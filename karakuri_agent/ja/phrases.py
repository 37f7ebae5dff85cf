"""Small phrases shared by the report, the voice and the reasons."""

from __future__ import annotations

import re

from karakuri_agent.domain.limits import FRIEND_AFTER_TALKS


def yen(amount: int) -> str:
    """An amount of money as people write it: 1,200円."""
    return f"{amount:,}円"


DEFAULT_HONORIFIC = "さん"  # added to a person's name unless the persona says otherwise
SOME_TIME_AGO = "前"


def remembered(when: str, speaker: str, source: str) -> str:
    """Why a line brings up a memory (`--explain`): 4/18に桜草メイから聞いた「…」を覚えていた."""
    return f"{when}に{speaker}から聞いた「{source}」を覚えていた"


def did(what: str) -> str:
    """What the agent did, as its own note in the server's activity log."""
    return f"「{what}」を実行した。"


def said(line: str) -> str:
    return f"「{line}」と話した。"


def because(reason: str) -> str:
    return f"理由: {reason}"


def follows_rule(rule_id: str) -> str:
    """The reason of a pack rule that gives none of its own."""
    return f"「{rule_id}」のルールに従う"


def relationship(interactions: int) -> str:
    """A coarse label for how well the agent knows someone, by the talks they had."""
    if interactions >= FRIEND_AFTER_TALKS:
        return "友達"
    if interactions >= 1:
        return "知り合い"
    return "顔見知り"


# The reason the one-shot wrapper records for a command an LLM runtime chose.
RUNTIME_CHOICE = "LLMランタイムの選択"
# Why nothing was sent: no candidate passed the gate / there was nothing to choose.
NONE_SENDABLE = "どの候補も送れる形にならなかった"
# A stand-in character for the longest name or label a phrase may be filled with.
FILLER = "ア"


def starter_pack(name: str) -> dict[str, object]:
    """The Japanese fields of the smallest pack `persona init` writes for a character called `name`."""
    return {
        "first_person": "わたし",
        "honorific": DEFAULT_HONORIFIC,
        "tone": "からくり町に住む、穏やかな人。短い言葉で、相手の話を受け止めて返す。",
        "greetings": {
            "first_meeting": [
                "はじめまして、{partner}。" + name + "です。よろしくお願いします。",
                "{partner}、はじめまして！" + name + "といいます。",
            ],
        },
    }

# What a fixture server answers to a command it has no recorded answer for, as the server words it.
COMMAND_ACCEPTED = "コマンドを受け付けました"


# An action that is a sleep (its name, or its id): at night it lasts until the morning.
SLEEP_WORDS = ("寝る", "眠る", "睡眠", "仮眠", "昼寝", "就寝", "sleep", "nap")


def is_sleep(action_name: str) -> bool:
    return any(word in action_name for word in SLEEP_WORDS)


_POLITE_END = ("です", "ます", "でした", "ました", "ません", "ましょう", "ください", "でしょう", "ですね", "ますね", "ですよ",
               "ますよ", "ですか", "ますか")


def is_polite(line: str) -> bool:
    """A phrase said in です/ます: its last sentence ends so (punctuation, a closing name and emoji aside)."""
    last = re.split(r"(?<=[。！？!?])", line.strip().rstrip("。！？!?…♪〜ー～ 　"))
    tail = last[-1] if last else ""
    tail = re.sub(r"[、,]\s*\{partner\}$", "", tail).rstrip("。！？!?…♪〜ー～ 　")
    return tail.endswith(_POLITE_END)
