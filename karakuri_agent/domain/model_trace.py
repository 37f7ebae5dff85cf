"""What the model was asked in one notification and what came of it.

Kept apart from the decider so that reading the activity log (`log`,
`--explain`, `--json`) never imports pydantic or openai: a trace is plain
data, stored as JSON with the notification's report entry and turned back
into one readable line here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

# trace.outcome: who decided.
MODEL, REPAIRED, RULES = "model", "repaired", "rules"


@dataclass
class LLMTrace:
    """What the model was asked and what came of it, for one notification."""

    model: str
    proposals: list[dict[str, Any]] = field(default_factory=list)  # each answer as read, in order
    problems: list[list[str]] = field(default_factory=list)  # what was wrong with each refused answer
    outcome: str = RULES  # MODEL: admitted as proposed; REPAIRED: the second answer; RULES: replaced
    error: str | None = None  # why no usable answer came (timeout, http 500, budget spent, ...)
    # Every failure the rules stood in for (the Proposal's errors), each as one secret-free line.
    errors: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    ms: int = 0
    budget: float = 0  # KARAKURI_LLM_TIMEOUT, seconds
    # What the server was asked for: json_schema, json_object, or text (it refused both; llm/chat.py).
    response_format: str | None = None
    # Set by the cycle once the notification is done: whether a command reached the
    # server (the model's, or the rules' when they decided; None: not known yet), and
    # whether it was a dry run.
    sent: bool | None = None
    dry_run: bool = False

    @property
    def repaired(self) -> bool:
        return self.outcome == REPAIRED

    @property
    def replaced_by_rules(self) -> bool:
        return self.outcome == RULES

    @property
    def out_of_time(self) -> bool:
        """The rules decided because the budget ran out before a usable answer came."""
        return self.outcome == RULES and self.error in ("timeout", "budget spent")

    def overruled(self, problem: str) -> None:
        """The caller's own gate refused the proposal the model's checks admitted; the rules' went out.

        The decider's checks do not know everything the last gate does (the
        configured secrets): the record then says the rules decided, and why
        the proposal was refused, beside it as any refused answer's problems are.
        """
        if self.outcome == RULES or not self.proposals:
            return
        self.problems = [*self.problems[:len(self.proposals) - 1], [problem]]
        self.outcome = RULES

    def to_json(self) -> dict[str, Any]:
        # `out_of_time` is said, not left to the reader to infer from the error's name (read back: ignored).
        return {**asdict(self), "out_of_time": self.out_of_time}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LLMTrace:
        """A stored trace; keys this version does not know are ignored."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def line(self) -> str:
        """One readable line: each answer, what was wrong with it, who decided, the cost."""
        steps = []
        for index, proposal in enumerate(self.proposals):
            step = proposal.get("command") or "unreadable answer"
            if index < len(self.problems):
                step += f" ({'; '.join(self.problems[index])})"
            steps.append(step)
        if self.out_of_time and self.budget:
            steps.append(f"{self.error}: no usable answer within {self.budget:g} s (KARAKURI_LLM_TIMEOUT)")
        elif self.error:
            steps.append(self.error)
        steps += [error for error in self.errors if error != self.error]
        return (f"model {self.model}: {' → '.join(steps) or 'no answer'} → {self.verdict()}"
                f" ({self.prompt_tokens}+{self.completion_tokens} tokens, {self.ms} ms)")

    def verdict(self) -> str:
        if self.outcome == RULES:
            return "rules decided"
        how = "as proposed" if self.outcome == MODEL else "after one repair"
        if self.dry_run:
            return f"would be sent {how}"
        if self.sent is None:
            return f"admitted {how}"
        return f"sent {how}" if self.sent else f"admitted {how}, not sent"
