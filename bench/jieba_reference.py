#!/usr/bin/env python3
"""Reference segmentation for bench/segmenter_agreement.cpp.

Reads a corpus file (JSON Lines {"id", "source", "text"}), picks up to --sentences lines that
hold at least four Han characters (evenly spread over the corpus, deterministic), segments each
with jieba (`jieba.cut(line, HMM=False)`, the default mode) and writes, per line:

    S<TAB>the line
    T<TAB>token lengths in code points, separated by spaces

Needs python3-jieba (Debian). Usage: jieba_reference.py CORPUS.jsonl [--sentences N]
"""
import argparse
import json
import logging
import sys


def is_han(ch):
    c = ord(ch)
    return (0x4E00 <= c <= 0x9FFF or 0x3400 <= c <= 0x4DBF or 0x20000 <= c <= 0x323AF
            or 0xF900 <= c <= 0xFAFF or 0x2F800 <= c <= 0x2FA1F or c == 0x3007)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('corpus')
    ap.add_argument('--sentences', type=int, default=3000)
    args = ap.parse_args()
    try:
        import jieba
    except ImportError:
        sys.exit('jieba_reference.py: the jieba module is missing (apt-get install python3-jieba; '
                 'use the python3 that has it, e.g. /usr/bin/python3)')
    jieba.setLogLevel(logging.ERROR)
    try:
        f = open(args.corpus, encoding='utf-8')
    except OSError as e:
        sys.exit('jieba_reference.py: cannot open the corpus file %s: %s' % (args.corpus, e.strerror))
    lines = []
    with f:
        for row in f:
            text = json.loads(row)['text']
            for line in text.split('\n'):
                line = line.strip()
                if sum(1 for ch in line if is_han(ch)) >= 4:
                    lines.append(line)
    if not lines:
        sys.exit('jieba_reference.py: no usable lines in %s' % args.corpus)
    step = max(1, len(lines) // args.sentences)
    picked = lines[::step][:args.sentences]
    out = sys.stdout
    for line in picked:
        out.write('S\t%s\n' % line)
        out.write('T\t%s\n' % ' '.join(str(len(t)) for t in jieba.cut(line, HMM=False)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
