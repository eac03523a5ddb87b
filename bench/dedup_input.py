#!/usr/bin/env python3
"""Writes a JSON Lines input of N documents for the `semfp dedup` scaling benchmark.

The documents are taken in turn from a source JSON Lines file (by default the DEV evaluation
documents); copy k > 0 of a source document gets the id suffix "~k" and a small, deterministic
edit (a few characters replaced, a sentence appended), so the clusterer sees near-duplicates as
well as new documents. Only the fields `id`, `text` and `format` are kept.

usage: dedup_input.py SOURCE.jsonl OUT.jsonl [N=100000]
"""
import json
import random
import sys


def edited(text, k, rng):
    if k == 0 or not text:
        return text
    chars = list(text)
    for _ in range(min(3, len(chars))):
        chars[rng.randrange(len(chars))] = rng.choice("的一是在不了有和人这中大为上个国我以要他")
    return "".join(chars) + "（第%d版）" % k


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    source, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
    docs = []
    with open(source, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                docs.append({"id": str(d["id"]), "text": d["text"], "format": d.get("format")})
    if not docs:
        sys.exit("no documents in " + source)
    rng = random.Random(20240611)
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        for i in range(n):
            k, d = divmod(i, len(docs))
            src = docs[d]
            rec = {"id": src["id"] + ("~%d" % k if k else ""), "text": edited(src["text"], k, rng)}
            if src["format"]:
                rec["format"] = src["format"]
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    import os
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
