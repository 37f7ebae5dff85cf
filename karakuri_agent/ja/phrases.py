"""Small phrases shared by the report, the voice and the reasons."""

from __future__ import annotations


def yen(amount: int) -> str:
    """An amount of money as people write it: 1,200円."""
    return f"{amount:,}円"
