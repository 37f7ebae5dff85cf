"""`karakuri-agent day`: one in-world day of the agent's life, read from the state only.

read.py reads the day's records, model.py builds the `Day` from them (pure),
and three renderers lay it out: text.py (a summary read in a minute),
as_json.py (one JSON object) and page.py (one self-contained HTML page).
"""
