"""The day view's Japanese: headings, labels and the words of its summary."""

from __future__ import annotations

KINDS = {"place": "到着", "talk": "会話", "promise": "約束", "gift": "譲渡", "failure": "失敗"}
