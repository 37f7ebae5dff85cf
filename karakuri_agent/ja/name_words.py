"""How people are called: the one list of honorifics the voice, the report and the question reader share."""

from __future__ import annotations

# Said after a name: a name already ending with one gets no other (コウ先輩, not コウ先輩さん).
HONORIFICS = (
    "ちゃん", "くん", "君", "さん", "様", "さま", "先生", "せんせい",
    "先輩", "センパイ", "氏", "たん", "っち", "殿",
)

# A kana nickname's last sound, dropped when others call them ('ひよりん' is called ひよりさん).
NICKNAME_ENDINGS = ("ん", "ぽん", "りん")
