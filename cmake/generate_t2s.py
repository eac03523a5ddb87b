#!/usr/bin/env python3
"""Writes include/semfp/detail/t2s_table.hpp: the Traditional -> Simplified character table.

Called by cmake/generate_t2s.cmake (`cmake -P`); standard library plus the `opencc` command.
Every Han code point (the ranges of semfp::is_han) is converted, one per line, with
`opencc -c t2s`; the code points that come back as one different code point form the table.
Chains (a -> b, b -> c) are resolved so that folding is idempotent. Output is deterministic.
"""
import argparse
import hashlib
import os
import subprocess
import sys

HAN_RANGES = [(0x3007, 0x3007), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
              (0x20000, 0x323AF), (0x2F800, 0x2FA1F)]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--opencc', required=True, help='the opencc executable')
    ap.add_argument('--data-dir', required=True, help='folder of the OpenCC data (t2s.json, TS*.ocd2)')
    ap.add_argument('--version', required=True, help='version of the OpenCC data package')
    ap.add_argument('--output', required=True)
    args = ap.parse_args()

    cps = [c for lo, hi in HAN_RANGES for c in range(lo, hi + 1)]
    text = ''.join(chr(c) + '\n' for c in cps)
    config = os.path.join(args.data_dir, 't2s.json')
    res = subprocess.run([args.opencc, '-c', config], input=text.encode('utf-8'),
                         capture_output=True, check=True)
    lines = res.stdout.decode('utf-8').split('\n')
    if len(lines) < len(cps):
        sys.exit('generate_t2s: opencc returned %d lines for %d code points' % (len(lines), len(cps)))
    mapping = {}
    for c, line in zip(cps, lines):
        if line != chr(c) and len(line) == 1:
            mapping[c] = ord(line)
    for c in list(mapping):
        seen = {c}
        t = mapping[c]
        while t in mapping and t not in seen:
            seen.add(t)
            t = mapping[t]
        mapping[c] = t
    mapping = {a: b for a, b in mapping.items() if a != b}

    digests = []
    for name in ('t2s.json', 'TSCharacters.ocd2', 'TSPhrases.ocd2'):
        path = os.path.join(args.data_dir, name)
        digests.append('//   %s %s' % (hashlib.sha256(open(path, 'rb').read()).hexdigest(), name))

    out = []
    out.append('#pragma once')
    out.append('// GENERATED FILE -- DO NOT EDIT.')
    out.append('// Generator: cmake -P cmake/generate_t2s.cmake (helper cmake/generate_t2s.py).')
    out.append('// Source: OpenCC (https://github.com/BYVoid/OpenCC) data from Debian package libopencc-data %s,' % args.version)
    out.append('// applied as `opencc -c t2s` to every Han code point; kept: the %d code points that convert to' % len(mapping))
    out.append('// one other code point (chains resolved, so folding is idempotent). SHA-256 of the inputs:')
    out.extend(digests)
    out.append('// Upstream license: Apache License 2.0, Copyright (c) 2010-2022 BYVoid; the full text is in')
    out.append('// LICENSE.opencc.txt beside this file.')
    out.append('')
    out.append('#include <cstddef>')
    out.append('')
    out.append('namespace semfp {')
    out.append('inline namespace v0 {')
    out.append('namespace detail {')
    out.append('')
    out.append('struct t2s_pair {')
    out.append('    char32_t from;')
    out.append('    char32_t to;')
    out.append('};')
    out.append('')
    out.append('/// Traditional -> Simplified code points, sorted by `from`.')
    out.append('inline constexpr t2s_pair t2s_table[] = {')
    items = sorted(mapping.items())
    for i in range(0, len(items), 4):
        out.append('    ' + ' '.join('{0x%05X, 0x%05X},' % kv for kv in items[i:i + 4]))
    out.append('};')
    out.append('')
    out.append('inline constexpr std::size_t t2s_table_size = %d;' % len(items))
    out.append('')
    out.append('}  // namespace detail')
    out.append('}  // namespace v0')
    out.append('}  // namespace semfp')
    with open(args.output, 'w', encoding='ascii', newline='\n') as f:
        f.write('\n'.join(out) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
