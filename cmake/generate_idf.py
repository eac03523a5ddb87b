#!/usr/bin/env python3
"""Writes include/semfp/dict/embedded_idf_data.hpp from jieba's analyse/idf.txt.

Called by cmake/generate_idf.cmake (`cmake -P`); standard library only, deterministic output
(no timestamps). Keeps the terms made entirely of Han characters (the terms the embedded
dictionary's segmenter emits), removes duplicates (the last value wins, as in jieba), sorts them
by code point (= UTF-8 byte order) and writes `term<TAB>idf` lines, the IDF rounded to four
decimals, in string_view pieces of at most 4000 bytes that never split a line; every byte
outside printable ASCII is a three-digit octal escape so the header is pure ASCII (the shared
writer is cmake/jieba_pieces.py). The IDF of unknown terms is the median of all values, as
jieba's TFIDF uses.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jieba_pieces import (PIECE_BYTES, banner, close_namespace, emit_pieces, escape,  # noqa: E402
                          is_han_word, open_namespace, read_source, split_pieces, write_header)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--source', required=True, help="jieba's analyse/idf.txt")
    ap.add_argument('--version', required=True, help='version of the package the source comes from')
    ap.add_argument('--output', required=True)
    args = ap.parse_args()

    text, digest = read_source(args.source)
    idf = {}
    total = 0
    for line in text.splitlines():
        fields = line.split()
        if len(fields) != 2:
            continue
        total += 1
        term, value = fields[0], float(fields[1])
        if is_han_word(term):
            idf[term] = value
    values = sorted(idf.values())
    median = values[len(values) // 2]  # jieba: sorted(values)[len // 2]
    ordered = sorted(idf)
    pieces = split_pieces(t.encode('utf-8') + b'\t' + ('%.4f' % idf[t]).encode() + b'\n' for t in ordered)
    payload = sum(len(p) for p in pieces)

    out = banner('generate_idf', 'analyse/idf.txt', args.version, digest, [
        'Content: the %d distinct terms made only of Han characters (of %d entries) with their IDF' % (len(ordered), total),
        'rounded to 4 decimals, sorted by code point, as term<TAB>idf lines in %d pieces of at most' % len(pieces),
        '%d bytes (%d bytes in all). Unknown terms: the median IDF.' % (PIECE_BYTES, payload),
    ], 'semfp/dict/embedded_idf.hpp')
    open_namespace(out, 'idf_data', ['cstddef', 'string_view'])
    out.append('using std::string_view_literals::operator""sv;')
    out.append('')
    out.append('inline constexpr std::string_view source_version = "%s"sv;' % escape(args.version.encode()))
    out.append('inline constexpr std::string_view source_sha256 = "%s"sv;' % digest)
    out.append('inline constexpr std::size_t term_count = %d;' % len(ordered))
    out.append('inline constexpr double median_idf = %.4f;' % median)
    out.append('')
    emit_pieces(out, pieces)
    out.append('')
    close_namespace(out, 'idf_data')
    write_header(args.output, out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
