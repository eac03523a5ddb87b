#!/usr/bin/env python3
"""Writes include/semfp/dict/embedded_pos_data.hpp: the part-of-speech tag of every word of the
embedded word list, from jieba's dict.txt (`word freq tag` lines).

Called by cmake/generate_pos.cmake (`cmake -P`); standard library only, deterministic output.
The words and their order are those of embedded_data.hpp (generate_dictionary.py: the words made
only of Han characters, code-point order); a word listed twice takes the tag of its last line,
as jieba's posseg does. The distinct tags are numbered 1, 2, ... in code-point order of their
names; word i's tag is byte i of the concatenated pieces, written as the character '@' + id, so
the payload is one printable byte per word (the shared writer is cmake/jieba_pieces.py).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jieba_pieces import (PIECE_BYTES, banner, close_namespace, emit_pieces, escape,  # noqa: E402
                          open_namespace, read_dict_entries, split_pieces, write_header)

TAG_BASE = 0x40  # '@': the byte of tag id 0 (no tag); ids 1..62 stay below 0x7F


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--source', required=True, help="jieba's dict.txt")
    ap.add_argument('--version', required=True, help='version of the package the source comes from')
    ap.add_argument('--output', required=True)
    args = ap.parse_args()

    digest, entries, total = read_dict_entries(args.source)
    words = sorted(entries)
    tag_of = {w: (entries[w][2] if len(entries[w]) >= 3 else '') for w in words}
    names = sorted({t for t in tag_of.values() if t})
    if TAG_BASE + len(names) >= 0x7F:
        raise SystemExit('generate_pos: too many distinct tags (%d)' % len(names))
    ids = {t: i + 1 for i, t in enumerate(names)}
    payload = bytes(TAG_BASE + ids.get(tag_of[w], 0) for w in words)
    pieces = split_pieces(payload[i:i + 1] for i in range(len(payload)))
    untagged = sum(1 for w in words if not tag_of[w])

    out = banner('generate_pos', 'dict.txt', args.version, digest, [
        'Content: the part-of-speech tag of each of the %d words of embedded_data.hpp (of %d' % (len(words), total),
        'entries; %d without a tag), in the same order: byte i of the pieces is the character' % untagged,
        "'@' + id of word i's tag, ids numbering the %d tag names below (0: none); %d pieces of at" % (len(names), len(pieces)),
        'most %d bytes.' % PIECE_BYTES,
    ], 'semfp/dict/embedded_pos.hpp')
    open_namespace(out, 'pos_data', ['cstddef', 'string_view'])
    out.append('using std::string_view_literals::operator""sv;')
    out.append('')
    out.append('inline constexpr std::string_view source_version = "%s"sv;' % escape(args.version.encode()))
    out.append('inline constexpr std::string_view source_sha256 = "%s"sv;' % digest)
    out.append('inline constexpr std::size_t word_count = %d;' % len(words))
    out.append("inline constexpr char tag_base = '@';")
    out.append('')
    out.append('inline constexpr std::string_view tag_names[] = {')
    out.append('    ""sv,')
    for t in names:
        out.append('    "%s"sv,' % escape(t.encode()))
    out.append('};')
    out.append('')
    emit_pieces(out, pieces)
    out.append('')
    close_namespace(out, 'pos_data')
    write_header(args.output, out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
