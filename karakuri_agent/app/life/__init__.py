"""`karakuri-agent town`: a character lives days in the offline town (`karakuri_agent/town/`), in process.

transport.py puts the town behind the agent's HTTP client (no socket),
run.py lives the days through the real cycle (`Agent.handle`), summary.py
reads each day back from the state as `day` does, compare.py sets two
lives on one seed side by side.
"""
