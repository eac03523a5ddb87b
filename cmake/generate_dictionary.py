#!/usr/bin/env python3
"""Writes include/semfp/dict/embedded_data.hpp from jieba's dict.txt.

Called by cmake/generate_dictionary.cmake (`cmake -P`); standard library only, deterministic
output (no timestamps). Keeps the words made entirely of Han characters (the only words the
segmenter can match), removes duplicates, sorts them by code point (= UTF-8 byte order) and
emits them newline-terminated in string_view pieces of at most 4000 bytes, every byte outside
printable ASCII written as a three-digit octal escape so the header is pure ASCII (the shared
writer is cmake/jieba_pieces.py).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jieba_pieces import (PIECE_BYTES, banner, close_namespace, emit_pieces, escape,  # noqa: E402
                          is_han, open_namespace, read_dict_entries, split_pieces, write_header)

__all__ = ['is_han', 'dictionary_words']


def dictionary_words(path):
    """(sha256, words in code-point order, entry count) of jieba's dict.txt at `path`."""
    digest, entries, total = read_dict_entries(path)
    return digest, sorted(entries), total  # code-point order, which equals UTF-8 byte order


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--source', required=True, help="jieba's dict.txt")
    ap.add_argument('--version', required=True, help='version of the package the source comes from')
    ap.add_argument('--output', required=True)
    args = ap.parse_args()

    digest, ordered, total = dictionary_words(args.source)
    pieces = split_pieces(w.encode('utf-8') + b'\n' for w in ordered)
    payload = sum(len(p) for p in pieces)

    out = banner('generate_dictionary', 'dict.txt', args.version, digest, [
        'Content: the %d distinct words made only of Han characters (of %d entries), sorted by' % (len(ordered), total),
        'code point, one per line, in %d pieces of at most %d bytes (%d bytes in all).' % (len(pieces), PIECE_BYTES, payload),
    ], 'semfp/dict/embedded.hpp')
    open_namespace(out, 'dict_data', ['cstddef', 'string_view'])
    out.append('using std::string_view_literals::operator""sv;')
    out.append('')
    out.append('inline constexpr std::string_view source_version = "%s"sv;' % escape(args.version.encode()))
    out.append('inline constexpr std::string_view source_sha256 = "%s"sv;' % digest)
    out.append('inline constexpr std::size_t word_count = %d;' % len(ordered))
    out.append('inline constexpr std::size_t total_bytes = %d;' % payload)
    out.append('')
    emit_pieces(out, pieces)
    out.append('')
    close_namespace(out, 'dict_data')
    write_header(args.output, out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
