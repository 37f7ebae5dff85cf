"""The language model as a decider: it proposes, the gate decides (docs/llm.md)."""

# What to say when the model decider is chosen without its extra installed.
LLM_EXTRA = "KARAKURI_DECIDER=llm needs the llm extra: in the clone, pip install '.[llm]'"
