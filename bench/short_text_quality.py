#!/usr/bin/env python3
"""Short texts: a set of 20-200 character snippets from the evaluation kit's DEV documents, with
the kit's edits, clustered by `semfp dedup` and scored pairwise; and the data for the sketch
comparison (bench/short_text_sketch.cpp).

  short_text_quality.py --docs DEV.docs.jsonl --tool SEMFP --work DIR [--sketch PROGRAM]
                        [--seed 1] [--out REPORT.md] [--clean] [--reuse]

The set. From every "original" document of DEV (the kit's base documents; plain text), the first
two sentences and the first two paragraphs (blank-line separated) that are 20-200 characters
long after trimming are snippets. A snippet whose character 5-gram Jaccard similarity with an
earlier snippet is >= 0.5 is dropped (the kit's rule for natural near-duplicates), so distinct
snippets are distinct texts. Every snippet gets the variants of the kit's generator
(/work/shared/eval/make_pairs.py, whose edit functions are imported): add, delete and subst at
5 % (at least one character), reorder (only snippets of two or more sentences), and s2t (opencc
s2t.json). A snippet and its variants form one ground-truth group. With --clean the
near-duplicate test runs on the snippets converted to Simplified script (opencc t2s.json: the
kit's zh_TW twins are copies) and also drops a snippet that shares at least half of the smaller
5-gram set with an earlier one (a sentence and the paragraph that holds it): pairs the plain set
counts as negatives although they are near-copies. --reuse scores the set already in --work.

Scoring. Each configuration of `semfp dedup` writes id<TAB>cluster; pairwise precision, recall
and F1 count pairs of documents in the same cluster against pairs in the same group; false
positives are the co-clustered pairs of different groups (all of them: the score covers every
pair of the set), split into same-site pairs (the two originals come from the same source
directory of the kit, e.g. one man-page section) and plain ones. Recall per kind is the share of
(snippet, variant) pairs that are co-clustered. The set is clustered as a whole and scored three
times: over all pairs, and over the pairs inside each half of the DEV split (by the original's
base document, the split of bench/support/dev_pairs.hpp: half 0 tunes, half 1 confirms).

Sketches. PAIRS.jsonl (every snippet-variant pair, label 1, and a seeded sample of as many
cross-group pairs, label 0) is given to the sketch program, which prints its table.
Standard library only (plus the kit's modules and the opencc command).
"""
import argparse
import collections
import itertools
import json
import os
import random
import re
import subprocess
import sys

KIT = '/work/shared/eval'
sys.path.insert(0, KIT)
import make_pairs as kit  # noqa: E402
from common import split_sentences  # noqa: E402

KINDS = ['add', 'delete', 'subst', 'reorder', 's2t']
RATE = 0.05


def dev_half(base):
    """0 (tuning) or 1 (confirmation): bench/support/dev_pairs.hpp's split of the DEV pairs."""
    base = base.split('#', 1)[0]
    h = 0xcbf29ce484222325
    for b in base.encode('utf-8'):
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    h ^= 0x5EED5EED5EED5EED
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & 0xFFFFFFFFFFFFFFFF
    h ^= h >> 33
    h = (h * 0xc4ceb9fe1a85ec53) & 0xFFFFFFFFFFFFFFFF
    h ^= h >> 33
    return h >> 63


def site_of(doc):
    src = doc.get('source', '')
    return src.rsplit('/', 1)[0] if '/' in src else src


def grams5(text):
    t = re.sub(r'\s+', '', text)
    return {t[i:i + 5] for i in range(max(1, len(t) - 4))}


def snippets_of(text):
    out = []
    sents = [s.strip() for s in split_sentences(text)]
    for s in sents:
        if 20 <= len(s) <= 200:
            out.append(s)
            if len(out) == 2:
                break
    paras = [p.strip() for p in re.split(r'\n\s*\n', text)]
    n = 0
    for p in paras:
        if 20 <= len(p) <= 200:
            if p not in out:
                out.append(p)
            n += 1
            if n == 2:
                break
    return out


def build(docs_path, seed, clean=False):
    originals = []
    for line in open(docs_path, encoding='utf-8'):
        j = json.loads(line)
        if j.get('kind') == 'original' and j.get('format') != 'html':
            originals.append(j)
    rng = random.Random(seed)
    snippets = []  # (orig id, text, base, site)
    index = collections.defaultdict(list)
    grams = []
    dropped = 0
    cands = [(o, s) for o in originals for s in snippets_of(o['text'])]
    # --clean: compare snippets in Simplified script (the kit's zh_TW twins are copies) and also
    # drop one that is mostly contained in an earlier one or contains most of it (a sentence and
    # the paragraph that holds it).
    keys = kit.opencc_docs([s for _, s in cands], 't2s.json') if clean else [s for _, s in cands]
    for (o, s), key in zip(cands, keys):
        g = grams5(key)
        hits = collections.Counter()
        for x in g:
            for i in index.get(x, ()):
                hits[i] += 1
        if any(kit.jaccard(g, grams[i]) >= 0.5 or (clean and n >= 0.5 * min(len(g), len(grams[i])))
               for i, n in hits.items()):
            dropped += 1
            continue
        for x in g:
            index[x].append(len(snippets))
        grams.append(g)
        snippets.append((o['id'], s, o.get('base', o['id']), site_of(o)))
    pool = kit.CharPool([o['text'] for o in originals])
    donors = []
    for o in originals:
        for s in split_sentences(o['text']):
            if s.strip():
                donors.append((o['id'], s.strip()))
    s2t = kit.opencc_docs([s for _, s, _, _ in snippets], 's2t.json')
    docs, pairs = [], []
    skipped = collections.Counter()
    for g, (oid, s, dev_base, site) in enumerate(snippets):
        base = 's%05d' % g
        half = dev_half(dev_base)
        docs.append({'id': base, 'text': s, 'group': g, 'kind': 'snippet', 'base': dev_base, 'half': half,
                     'site': site})
        variants = {
            'add': kit.edit_add(s, RATE, rng, donors, oid)[0],
            'delete': kit.edit_delete(s, RATE, rng)[0],
            'subst': kit.edit_subst(s, RATE, rng, pool)[0],
        }
        r = kit.edit_reorder(s, rng)
        if r[1] > 0 and r[0] != s:
            variants['reorder'] = r[0]
        else:
            skipped['reorder'] += 1
        variants['s2t'] = s2t[g]
        for kind in KINDS:
            if kind not in variants:
                continue
            vid = '%s_%s' % (base, kind)
            docs.append({'id': vid, 'text': variants[kind], 'group': g, 'kind': kind, 'base': dev_base,
                         'half': half, 'site': site})
            pairs.append({'a': base, 'b': vid, 'kind': kind, 'label': 1, 'base': dev_base})
    # Negatives for the sketch comparison: a seeded sample of cross-group pairs.
    n_pos = len(pairs)
    for _ in range(n_pos):
        a, b = rng.sample(range(len(docs)), 2)
        if docs[a]['group'] != docs[b]['group']:
            pairs.append({'a': docs[a]['id'], 'b': docs[b]['id'], 'kind': 'negative', 'label': 0,
                          'base': docs[a]['base']})
    return docs, pairs, {'originals': len(originals), 'snippets': len(snippets), 'dropped_near_dup': dropped,
                         'reorder_skipped_one_sentence': skipped['reorder']}


def score(docs, clusters, half=None):
    if half is not None:
        docs = [d for d in docs if d['half'] == half]
    group = {d['id']: d['group'] for d in docs}
    site = {d['id']: d['site'] for d in docs}
    kind = {d['id']: d['kind'] for d in docs}
    by_cluster = collections.defaultdict(list)
    for i, c in clusters.items():
        if i in group:
            by_cluster[c].append(i)
    pred = tp = same_site = 0
    for members in by_cluster.values():
        pred += len(members) * (len(members) - 1) // 2
        cnt = collections.Counter(group[m] for m in members)
        tp += sum(n * (n - 1) // 2 for n in cnt.values())
        if len(cnt) > 1:
            for x, y in itertools.combinations(members, 2):
                same_site += group[x] != group[y] and site[x] == site[y]
    gsize = collections.Counter(group.values())
    truth = sum(n * (n - 1) // 2 for n in gsize.values())
    p = tp / pred if pred else 1.0
    r = tp / truth if truth else 1.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    hit, tot = collections.Counter(), collections.Counter()
    for d in docs:
        if d['kind'] == 'snippet':
            continue
        base = 's%05d' % d['group']
        tot[d['kind']] += 1
        hit[d['kind']] += clusters[d['id']] == clusters[base]
    return {'precision': p, 'recall': r, 'f1': f1, 'fp_pairs': pred - tp, 'fp_same_site': same_site, 'pred_pairs': pred,
            'truth_pairs': truth, 'recall_kind': {k: hit[k] / tot[k] for k in tot}, 'n_kind': dict(tot)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--docs', required=True)
    ap.add_argument('--tool', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--sketch')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--out')
    ap.add_argument('--clean', action='store_true',
                    help='drop snippets that are near-duplicates after Traditional-to-Simplified conversion or '
                         'by containment (see build)')
    ap.add_argument('--reuse', action='store_true',
                    help='use the set already in --work (written by an earlier run with the same --docs and --seed)')
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    docs_path = os.path.join(a.work, 'short.docs.jsonl')
    pairs_path = os.path.join(a.work, 'short_pairs.jsonl')
    stats_path = os.path.join(a.work, 'short_stats.json')
    if a.reuse and os.path.exists(stats_path):
        docs = [json.loads(line) for line in open(docs_path, encoding='utf-8')]
        stats = json.load(open(stats_path, encoding='utf-8'))
    else:
        docs, pairs, stats = build(a.docs, a.seed, a.clean)
        with open(docs_path, 'w', encoding='utf-8') as f:
            for d in docs:
                f.write(json.dumps(d, ensure_ascii=False) + '\n')
        with open(pairs_path, 'w', encoding='utf-8') as f:
            for p in pairs:
                f.write(json.dumps(p) + '\n')
        with open(stats_path, 'w', encoding='utf-8') as f:
            json.dump(stats, f)
    lens = sorted(len(d['text']) for d in docs if d['kind'] == 'snippet')
    lines = []
    emit = lambda s='': (print(s), lines.append(s))  # noqa: E731
    emit('%d snippets from %d original DEV documents (%d dropped as near-duplicates of an earlier one; '
         'length median %d, 10th-90th percentile %d-%d characters), %d documents with the variants '
         '(reorder skipped for %d one-sentence snippets)' % (
             stats['snippets'], stats['originals'], stats['dropped_near_dup'], lens[len(lens) // 2],
             lens[len(lens) // 10], lens[len(lens) * 9 // 10], len(docs), stats['reorder_skipped_one_sentence']))
    emit()
    help_text = subprocess.run([a.tool, 'dedup', '--help'], capture_output=True, text=True).stdout
    configs = [('simhash, default options', [])]
    if '--verify' in help_text:
        configs.append(('simhash, --verify sketch', ['--verify', 'sketch']))
    else:
        emit('(`semfp dedup` has no --verify option in this build: the two-stage configuration is not scored.)')
        emit()
    configs += [('simhash --match-members', ['--match-members']),
                ('simhash --hd 3', ['--hd', '3']),
                ('simhash --hd 8', ['--hd', '8']),
                ('simhash --bits 128 (hd 15)', ['--bits', '128']),
                ('minhash, threshold 0.95 (default)', ['--method', 'minhash']),
                ('minhash, threshold 0.7', ['--method', 'minhash', '--threshold', '0.7']),
                ('shingle, threshold 0.7', ['--method', 'shingle', '--threshold', '0.7']),
                ('keyword n = 8, TF', ['--method', 'keyword'])]
    emit('| configuration | pairs | precision | recall | F1 | false-positive pairs (same-site) | ' +
         ' | '.join(KINDS) + ' |')
    emit('|---|---|---:|---:|---:|---:|' + '---:|' * len(KINDS))
    n_kind = None
    for label, args in configs:
        out = os.path.join(a.work, 'clusters.tsv')
        cmd = [a.tool, 'dedup', docs_path, '--tsv', '-o', out, '--quiet', '--threads', '2'] + args
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            emit('| %s | failed: %s |' % (label, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else p.returncode))
            continue
        clusters = {}
        for line in open(out, encoding='utf-8'):
            i, c = line.rstrip('\n').split('\t')[:2]
            clusters[i] = c
        for half, name in ((None, 'all'), (0, 'tuning'), (1, 'confirmation')):
            s = score(docs, clusters, half)
            if half is None:
                n_kind = s['n_kind']
                s_all = s
            emit('| %s | %s | %.4f | %.4f | %.4f | %d (%d) | %s |' % (
                label if half is None else '', name, s['precision'], s['recall'], s['f1'], s['fp_pairs'],
                s['fp_same_site'], ' | '.join('%.1f' % (100 * s['recall_kind'].get(k, 0)) for k in KINDS)))
    if n_kind:
        emit()
        emit('Pairs per kind: ' + ', '.join('%s %d' % (k, n_kind.get(k, 0)) for k in KINDS) +
             '; recall columns in %%; false-positive pairs over all %d pairs of distinct groups.' % (
                 len(docs) * (len(docs) - 1) // 2 - s_all['truth_pairs']) +
             ' Halves: %d / %d documents.' % (sum(d['half'] == 0 for d in docs), sum(d['half'] == 1 for d in docs)))
    if a.sketch:
        emit()
        p = subprocess.run([a.sketch, pairs_path, docs_path], capture_output=True, text=True, check=True)
        for line in p.stdout.splitlines():
            emit(line)
    if a.out:
        with open(a.out, 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
