#!/usr/bin/env python3
"""Scores equal-signature methods on the evaluation kit's pairs, with the "any equal" rule.

Reads the pairs (JSON Lines with a, b, kind, rate, label) and the output of
`semfp fingerprint --method keyword|imatch|exact` (id<TAB>hex, or K hex joined by commas for
multi-lexicon I-Match). A pair matches when the signatures at some position are equal. Prints
recall per kind (and per rate for add/delete/subst), the false positives on plain and same-site
negatives, and one Markdown table row. Standard library only.

  signature_quality.py PAIRS.jsonl SIGNATURES.tsv [--label NAME]
"""
import argparse
import collections
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('pairs')
    ap.add_argument('signatures')
    ap.add_argument('--label', default='method')
    args = ap.parse_args()

    sigs = {}
    with open(args.signatures, encoding='utf-8') as f:
        for line in f:
            doc_id, _, hexes = line.rstrip('\n').partition('\t')
            sigs[doc_id] = hexes.split(',')

    hit = collections.Counter()
    total = collections.Counter()
    fp = collections.Counter()
    neg = collections.Counter()
    missing = 0
    with open(args.pairs, encoding='utf-8') as f:
        for line in f:
            p = json.loads(line)
            a, b = sigs.get(p['a']), sigs.get(p['b'])
            if a is None or b is None:
                missing += 1
                continue
            match = any(x == y for x, y in zip(a, b))
            if p['label'] == 0:
                neg[p['kind']] += 1
                fp[p['kind']] += match
                continue
            rated = p['kind'] in ('add', 'delete', 'subst')
            key = (p['kind'], p.get('rate') if rated else None)
            total[key] += 1
            hit[key] += match
            if rated:
                total[(p['kind'], None)] += 1
                hit[(p['kind'], None)] += match

    def recall(kind, rate=None):
        n = total[(kind, rate)]
        return 100.0 * hit[(kind, rate)] / n if n else float('nan')

    rates = [0.01, 0.02, 0.05, 0.1, 0.15, 0.2]
    print('=== %s (match iff any signature equal)' % args.label)
    print('kind      ' + ''.join('%8s' % ('%g%%' % (r * 100)) for r in rates))
    for kind in ('add', 'delete', 'subst'):
        print('%-10s' % kind + ''.join('%8.1f' % recall(kind, r) for r in rates))
    others = sorted({k for k, r in total if k not in ('add', 'delete', 'subst')})
    for kind in others:
        print('%-10s %6.1f  (n=%d)' % (kind, recall(kind, None), total[(kind, None)]))
    for kind in sorted(neg):
        print('FP %-14s %d / %d' % (kind, fp[kind], neg[kind]))
    if missing:
        print('pairs with a missing signature: %d' % missing, file=sys.stderr)
    zero_fp = all(fp[k] == 0 for k in neg)
    cols = ['add', 'delete', 'subst'] + others
    print('| %s | %s | %s | %s |' % (
        args.label, ' | '.join('%.1f' % recall(k, 0.05 if k in ('add', 'delete', 'subst') else None) for k in cols),
        fp.get('negative', 0), fp.get('site_negative', 0)))
    print('(columns: %s at 5 %% for add/delete/subst; FP negative; FP site_negative; zero FP: %s)' % (
        ', '.join(cols), 'yes' if zero_fp else 'NO'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
