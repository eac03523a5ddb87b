#!/usr/bin/env python3
"""Writes include/semfp/dict/embedded_data.hpp from jieba's dict.txt.

Called by cmake/generate_dictionary.cmake (`cmake -P`); standard library only, deterministic
output (no timestamps). Keeps the words made entirely of Han characters (the only words the
segmenter can match), removes duplicates, sorts them by code point (= UTF-8 byte order) and
emits them newline-terminated in string_view pieces of at most 4000 bytes, every byte outside
printable ASCII written as a three-digit octal escape so the header is pure ASCII.
"""
import argparse
import hashlib
import sys

PIECE_BYTES = 4000


def is_han(c):
    return (0x4E00 <= c <= 0x9FFF or 0x3400 <= c <= 0x4DBF or 0x20000 <= c <= 0x323AF
            or 0xF900 <= c <= 0xFAFF or 0x2F800 <= c <= 0x2FA1F or c == 0x3007)


def escape(data):
    out = []
    for b in data:
        if 0x20 <= b < 0x7F and b not in (0x22, 0x5C, 0x3F):
            out.append(chr(b))
        else:
            out.append('\\%03o' % b)
    return ''.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--source', required=True, help="jieba's dict.txt")
    ap.add_argument('--version', required=True, help='version of the package the source comes from')
    ap.add_argument('--output', required=True)
    args = ap.parse_args()

    raw = open(args.source, 'rb').read()
    digest = hashlib.sha256(raw).hexdigest()
    words = set()
    total = 0
    for line in raw.decode('utf-8').splitlines():
        fields = line.split()
        if not fields:
            continue
        total += 1
        w = fields[0]
        if all(is_han(ord(ch)) for ch in w):
            words.add(w)
    ordered = sorted(words)  # code-point order, which equals UTF-8 byte order

    pieces = []
    cur = bytearray()
    for w in ordered:
        line = w.encode('utf-8') + b'\n'
        if len(cur) + len(line) > PIECE_BYTES:
            pieces.append(bytes(cur))
            cur = bytearray()
        cur += line
    if cur:
        pieces.append(bytes(cur))
    payload = sum(len(p) for p in pieces)

    out = []
    out.append('#pragma once')
    out.append('// GENERATED FILE -- DO NOT EDIT.')
    out.append('// Generator: cmake -P cmake/generate_dictionary.cmake (helper cmake/generate_dictionary.py).')
    out.append('// Source: jieba dict.txt (https://github.com/fxsjy/jieba) from Debian package python3-jieba %s' % args.version)
    out.append('// Source SHA-256: %s' % digest)
    out.append('// Content: the %d distinct words made only of Han characters (of %d entries), sorted by' % (len(ordered), total))
    out.append('// code point, one per line, in %d pieces of at most %d bytes (%d bytes in all).' % (len(pieces), PIECE_BYTES, payload))
    out.append('// Upstream license: MIT (Expat), Copyright (c) 2012-2017 Sun Junyi; the full text is in')
    out.append('// LICENSE.jieba.txt beside this file.')
    out.append('// Included only by <semfp/dict/embedded.hpp>.')
    out.append('')
    out.append('#include <cstddef>')
    out.append('#include <string_view>')
    out.append('')
    out.append('namespace semfp {')
    out.append('inline namespace v0 {')
    out.append('namespace detail {')
    out.append('namespace dict_data {')
    out.append('')
    out.append('using std::string_view_literals::operator""sv;')
    out.append('')
    out.append('inline constexpr std::string_view source_version = "%s"sv;' % escape(args.version.encode()))
    out.append('inline constexpr std::string_view source_sha256 = "%s"sv;' % digest)
    out.append('inline constexpr std::size_t word_count = %d;' % len(ordered))
    out.append('inline constexpr std::size_t total_bytes = %d;' % payload)
    out.append('')
    out.append('inline constexpr std::string_view pieces[] = {')
    for p in pieces:
        out.append('    "%s"sv,' % escape(p))
    out.append('};')
    out.append('')
    out.append('}  // namespace dict_data')
    out.append('}  // namespace detail')
    out.append('}  // namespace v0')
    out.append('}  // namespace semfp')
    text = '\n'.join(out) + '\n'
    with open(args.output, 'w', encoding='ascii', newline='\n') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
