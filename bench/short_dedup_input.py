#!/usr/bin/env python3
"""Writes a JSON Lines input of N short documents (20-200 characters) for timing `semfp dedup`
on short texts, where every document's sketch is an exact one (fewer than 30 tokens: the
character bigrams of the text, core/sketch.hpp) and its bins are derived, not stored.

The snippets are the lines of the source documents (by default the DEV evaluation documents;
plain-text documents only, HTML ones skipped) that are 20-200 characters long after trimming,
each distinct line once, in a seeded random order, the first N / 2 of them (so each comes twice).
They are taken in turn like bench/dedup_input.py
takes documents: copy k > 0 of a snippet gets the id suffix "~k" and that script's small,
deterministic edit (three characters replaced, a suffix appended), so the clusterer sees
near-duplicates as well as new texts. Fields: `id`, `text`.

usage: short_dedup_input.py SOURCE.jsonl OUT.jsonl [N=50000]
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dedup_input import edited  # noqa: E402  (the same edit as the long-document input)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    source, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 50000
    seen = set()
    snippets = []
    with open(source, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            d = json.loads(line)
            if d.get("format") not in (None, "text", "plain"):
                continue
            for piece in d["text"].splitlines():
                piece = piece.strip()
                if 20 <= len(piece) <= 200 and piece not in seen:
                    seen.add(piece)
                    snippets.append(piece)
    if not snippets:
        sys.exit("no 20-200 character lines in " + source)
    random.Random(20261124).shuffle(snippets)
    del snippets[max(1, n // 2):]
    rng = random.Random(20240611)
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        for i in range(n):
            k, s = divmod(i, len(snippets))
            rec = {"id": "s%06d" % s + ("~%d" % k if k else ""), "text": edited(snippets[s], k, rng)}
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    os.replace(out + ".tmp", out)
    print("%d documents from %d distinct snippets" % (n, len(snippets)), file=sys.stderr)


if __name__ == "__main__":
    main()
