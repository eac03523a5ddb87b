#!/usr/bin/env python3
"""Writes include/semfp/dict/embedded_idf_data.hpp from jieba's analyse/idf.txt.

Called by cmake/generate_idf.cmake (`cmake -P`); standard library only, deterministic output
(no timestamps). Keeps the terms made entirely of Han characters (the terms the embedded
dictionary's segmenter emits), removes duplicates (the last value wins, as in jieba), sorts them
by code point (= UTF-8 byte order) and writes `term<TAB>idf` lines, the IDF rounded to four
decimals, in string_view pieces of at most 4000 bytes that never split a line; every byte
outside printable ASCII is a three-digit octal escape so the header is pure ASCII. The IDF of
unknown terms is the median of all values, as jieba's TFIDF uses.
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
    ap.add_argument('--source', required=True, help="jieba's analyse/idf.txt")
    ap.add_argument('--version', required=True, help='version of the package the source comes from')
    ap.add_argument('--output', required=True)
    args = ap.parse_args()

    raw = open(args.source, 'rb').read()
    digest = hashlib.sha256(raw).hexdigest()
    idf = {}
    total = 0
    for line in raw.decode('utf-8').splitlines():
        fields = line.split()
        if len(fields) != 2:
            continue
        total += 1
        term, value = fields[0], float(fields[1])
        if all(is_han(ord(ch)) for ch in term):
            idf[term] = value
    values = sorted(idf.values())
    median = values[len(values) // 2]  # jieba: sorted(values)[len // 2]
    ordered = sorted(idf)

    pieces = []
    cur = bytearray()
    for t in ordered:
        line = t.encode('utf-8') + b'\t' + ('%.4f' % idf[t]).encode() + b'\n'
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
    out.append('// Generator: cmake -P cmake/generate_idf.cmake (helper cmake/generate_idf.py).')
    out.append('// Source: jieba analyse/idf.txt (https://github.com/fxsjy/jieba) from Debian package python3-jieba %s' % args.version)
    out.append('// Source SHA-256: %s' % digest)
    out.append('// Content: the %d distinct terms made only of Han characters (of %d entries) with their IDF' % (len(ordered), total))
    out.append('// rounded to 4 decimals, sorted by code point, as term<TAB>idf lines in %d pieces of at most' % len(pieces))
    out.append('// %d bytes (%d bytes in all). Unknown terms: the median IDF.' % (PIECE_BYTES, payload))
    out.append('// Upstream license: MIT (Expat), Copyright (c) 2012-2017 Sun Junyi; the full text is in')
    out.append('// LICENSE.jieba.txt beside this file.')
    out.append('// Included only by <semfp/dict/embedded_idf.hpp>.')
    out.append('')
    out.append('#include <cstddef>')
    out.append('#include <string_view>')
    out.append('')
    out.append('namespace semfp {')
    out.append('inline namespace v0 {')
    out.append('namespace detail {')
    out.append('namespace idf_data {')
    out.append('')
    out.append('using std::string_view_literals::operator""sv;')
    out.append('')
    out.append('inline constexpr std::string_view source_version = "%s"sv;' % escape(args.version.encode()))
    out.append('inline constexpr std::string_view source_sha256 = "%s"sv;' % digest)
    out.append('inline constexpr std::size_t term_count = %d;' % len(ordered))
    out.append('inline constexpr double median_idf = %.4f;' % median)
    out.append('')
    out.append('inline constexpr std::string_view pieces[] = {')
    for p in pieces:
        out.append('    "%s"sv,' % escape(p))
    out.append('};')
    out.append('')
    out.append('}  // namespace idf_data')
    out.append('}  // namespace detail')
    out.append('}  // namespace v0')
    out.append('}  // namespace semfp')
    text = '\n'.join(out) + '\n'
    with open(args.output, 'w', encoding='ascii', newline='\n') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
