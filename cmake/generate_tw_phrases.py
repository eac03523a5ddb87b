#!/usr/bin/env python3
"""Writes include/semfp/detail/tw_phrase_table.hpp: Taiwan-standard vocabulary folding.

Called by cmake/generate_tw_phrases.cmake (`cmake -P`); standard library plus OpenCC's
`opencc_dict` command. Sources: the Taiwan dictionaries OpenCC's `s2twp` and `tw2sp` conversions
use (TWPhrases, TWVariants and their reverse forms). Every entry links a phrase to its first
alternative; both are brought to the form semfp's normalization produces (semfp's own character
fold, the committed t2s_table.hpp, which runs before the phrase fold). A link whose Taiwan form
is itself a mainland phrase is dropped (folding it would change mainland text the conversion
leaves alone). The other links form classes (union-find), and every member of a class is
replaced by one representative: a mainland member, then the shortest, then the first in code
point order. So a text and its `opencc -c s2twp` conversion fold to the same words. Kept:
members made of Han characters only. Output is deterministic.
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from generate_t2s import HAN_RANGES  # noqa: E402 (the ranges of semfp::is_han)

# (file, True if its keys are mainland forms and its values Taiwan forms; False: the reverse)
SOURCES = (('TWPhrases.ocd2', True), ('TWVariants.ocd2', True), ('TWPhrasesRev.ocd2', False),
           ('TWVariantsRev.ocd2', False), ('TWVariantsRevPhrases.ocd2', False))


def is_han(c):
    return any(lo <= ord(c) <= hi for lo, hi in HAN_RANGES)


def read_char_fold(path):
    text = open(path, encoding='ascii').read()
    return {int(a, 16): int(b, 16) for a, b in re.findall(r'\{0x([0-9A-F]+), 0x([0-9A-F]+)\}', text)}


def dump(opencc_dict, path):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'dict.txt')
        subprocess.run([opencc_dict, '-i', path, '-o', out, '-f', 'ocd2', '-t', 'text'], check=True,
                       capture_output=True)
        entries = []
        for line in open(out, encoding='utf-8'):
            line = line.rstrip('\n')
            if not line:
                continue
            key, _, values = line.partition('\t')
            entries.append((key, values.split(' ')[0]))
        return entries


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--opencc-dict', required=True, help='the opencc_dict executable')
    ap.add_argument('--data-dir', required=True, help='folder of the OpenCC data (*.ocd2)')
    ap.add_argument('--char-table', required=True, help='the committed t2s_table.hpp')
    ap.add_argument('--version', required=True, help='version of the OpenCC data package')
    ap.add_argument('--output', required=True)
    args = ap.parse_args()

    fold = read_char_fold(args.char_table)
    fold_text = lambda s: ''.join(chr(fold.get(ord(c), ord(c))) for c in s)

    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    # A Taiwan-side form that is itself a mainland phrase (mainland "document" is written like
    # mainland "file" in Taiwan) is ambiguous: folding it would change mainland text that the
    # conversion leaves alone. Such links are dropped; the others form the classes.
    entries = [(mainland_keys, fold_text(k), fold_text(v))
               for name, mainland_keys in SOURCES
               for k, v in dump(args.opencc_dict, os.path.join(args.data_dir, name))
               if k and v and all(is_han(c) for c in k + v)]
    mainland = {k for mainland_keys, k, _ in entries if mainland_keys}
    for mainland_keys, k, v in entries:
        taiwan = v if mainland_keys else k
        if k == v or taiwan in mainland:
            continue
        a, b = find(k), find(v)
        if a != b:
            parent[a] = b

    classes = {}
    for x in list(parent):
        classes.setdefault(find(x), []).append(x)
    table = {}
    for members in classes.values():
        rep = min(members, key=lambda m: (m not in mainland, len(m), [ord(c) for c in m]))
        for m in members:
            if m != rep:
                table[m] = rep
    items = sorted(table.items(), key=lambda kv: [ord(c) for c in kv[0]])

    digests = []
    for name, _ in SOURCES:
        path = os.path.join(args.data_dir, name)
        digests.append('//   %s %s' % (hashlib.sha256(open(path, 'rb').read()).hexdigest(), name))

    def u32(s):
        return 'U"' + ''.join('\\U%08X' % ord(c) if ord(c) > 0xFFFF else '\\u%04X' % ord(c) for c in s) + '"'

    def utf8(s):
        return '"' + ''.join('\\x%02X' % b for b in s.encode('utf-8')) + '"'

    out = []
    out.append('#pragma once')
    out.append('// GENERATED FILE -- DO NOT EDIT.')
    out.append('// Generator: cmake -P cmake/generate_tw_phrases.cmake (helper cmake/generate_tw_phrases.py).')
    out.append('// Source: OpenCC (https://github.com/BYVoid/OpenCC) data from Debian package libopencc-data %s:' % args.version)
    out.append('// TWPhrases, TWVariants and their reverse forms, linked into classes of equivalent phrases (folded')
    out.append('// with t2s_table.hpp), each member replaced by its class representative; %d phrases. SHA-256 of the' % len(items))
    out.append('// inputs:')
    out.extend(digests)
    out.append('// Upstream license: Apache License 2.0, Copyright (c) 2010-2022 BYVoid; the full text is in')
    out.append('// LICENSE.opencc.txt beside this file.')
    out.append('')
    out.append('#include <cstddef>')
    out.append('#include <string_view>')
    out.append('')
    out.append('namespace semfp {')
    out.append('inline namespace v0 {')
    out.append('namespace detail {')
    out.append('')
    out.append('struct tw_phrase {')
    out.append('    std::u32string_view from;  // a character-folded phrase')
    out.append('    std::string_view to;       // its class representative, UTF-8')
    out.append('};')
    out.append('')
    out.append('/// Sorted by `from` (code point order).')
    out.append('inline constexpr tw_phrase tw_phrase_table[] = {')
    for k, v in items:
        out.append('    {%s, %s},' % (u32(k), utf8(v)))
    out.append('};')
    out.append('')
    out.append('inline constexpr std::size_t tw_phrase_table_size = %d;' % len(items))
    out.append('inline constexpr std::size_t tw_phrase_max_length = %d;' % max(len(k) for k, _ in items))
    out.append('')
    out.append('}  // namespace detail')
    out.append('}  // namespace v0')
    out.append('}  // namespace semfp')
    with open(args.output, 'w', encoding='ascii', newline='\n') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
