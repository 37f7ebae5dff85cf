"""Behaviour as data: a pack's `behaviour.json` (rules, reactions, variables) and the engine that runs it.

A unit of its own that imports nothing else of the package: the pack file is
read into frozen records (`spec`, `pack`), the agent's variables are changed
only by the engine, which clamps them (`variables`), rules and reactions are
evaluated against plain facts (`engine`), and the selector owns the order of
named rules, built-in and the pack's (`selector`). What a rule may send still
passes the one gate, handed in by the caller.
"""
