"""The language layer: every Japanese word, pattern and phrase the program matches or writes.

Nothing outside this package holds a Japanese literal (tests/test_layers.py
checks it); the rest of the code says what it means (`places.building`,
`reasons.go_to`) and this package says it in Japanese. It imports nothing of
the package but the domain types, so any layer may use it.
"""
