"""Shared parts of the generators of the embedded jieba data (generate_dictionary.py,
generate_idf.py, generate_dictionary_trie.py, generate_pos.py): the Han test that selects the
words, the reader of dict.txt, the octal escapes that keep the headers ASCII, the cut of
newline-terminated records into string_view pieces, and the banner and namespace frame every
header shares. Standard library only; every function is deterministic.
"""
import hashlib

PIECE_BYTES = 4000

JIEBA_LICENSE = [
    '// Upstream license: MIT (Expat), Copyright (c) 2012-2017 Sun Junyi; the full text is in',
    '// LICENSE.jieba.txt beside this file.',
]


def is_han(c):
    """True for the code points of semfp::is_han (CJK ideographs, extensions, compatibility
    ideographs and U+3007)."""
    return (0x4E00 <= c <= 0x9FFF or 0x3400 <= c <= 0x4DBF or 0x20000 <= c <= 0x323AF
            or 0xF900 <= c <= 0xFAFF or 0x2F800 <= c <= 0x2FA1F or c == 0x3007)


def is_han_word(w):
    return all(is_han(ord(ch)) for ch in w)


def read_source(path):
    """The bytes of `path` decoded as UTF-8, and their SHA-256 in hex."""
    raw = open(path, 'rb').read()
    return raw.decode('utf-8'), hashlib.sha256(raw).hexdigest()


def read_dict_entries(path):
    """jieba's dict.txt as (sha256, entries, total): entries maps every word made only of Han
    characters to its last line's fields (word, freq, tag; a later line wins, as in jieba), total
    counts the non-blank lines."""
    text, digest = read_source(path)
    entries = {}
    total = 0
    for line in text.splitlines():
        fields = line.split()
        if not fields:
            continue
        total += 1
        if is_han_word(fields[0]):
            entries[fields[0]] = fields
    return digest, entries, total


def escape(data):
    """C string literal body for `data`: printable ASCII as is (except the quote, the backslash
    and '?', which could start a trigraph), every other byte as a three-digit octal escape."""
    out = []
    for b in data:
        if 0x20 <= b < 0x7F and b not in (0x22, 0x5C, 0x3F):
            out.append(chr(b))
        else:
            out.append('\\%03o' % b)
    return ''.join(out)


def escape_binary(data):
    """C string literal body for `data`: printable ASCII as is, other bytes as the shortest
    octal escape that the next character cannot extend."""
    out = []
    n = len(data)
    for i, b in enumerate(data):
        if 0x20 <= b < 0x7F and b not in (0x22, 0x5C, 0x3F):
            out.append(chr(b))
            continue
        nxt = data[i + 1] if i + 1 < n else None
        digit_follows = nxt is not None and 0x30 <= nxt <= 0x37 and 0x20 <= nxt < 0x7F
        out.append('\\%03o' % b if digit_follows else '\\%o' % b)
    return ''.join(out)


def split_pieces(records, limit=PIECE_BYTES):
    """Concatenates the byte strings `records` into pieces of at most `limit` bytes that never
    split a record."""
    pieces = []
    cur = bytearray()
    for r in records:
        if len(cur) + len(r) > limit:
            pieces.append(bytes(cur))
            cur = bytearray()
        cur += r
    if cur:
        pieces.append(bytes(cur))
    return pieces


def banner(generator, source, version, digest, content, included_by):
    """The first lines of a generated header: `content` is a list of comment lines (without
    the leading '// ')."""
    out = ['#pragma once', '// GENERATED FILE -- DO NOT EDIT.',
           '// Generator: cmake -P cmake/%s.cmake (helper cmake/%s.py).' % (generator, generator),
           '// Source: jieba %s (https://github.com/fxsjy/jieba) from Debian package python3-jieba %s'
           % (source, version),
           '// Source SHA-256: %s' % digest]
    out += ['// ' + c for c in content]
    out += JIEBA_LICENSE
    out.append('// Included only by <%s>.' % included_by)
    out.append('')
    return out


def open_namespace(out, name, includes):
    for inc in includes:
        out.append('#include <%s>' % inc)
    out += ['', 'namespace semfp {', 'inline namespace v0 {', 'namespace detail {', 'namespace %s {' % name, '']


def close_namespace(out, name):
    out += ['}  // namespace %s' % name, '}  // namespace detail', '}  // namespace v0', '}  // namespace semfp']


def emit_pieces(out, pieces, name='pieces'):
    out.append('inline constexpr std::string_view %s[] = {' % name)
    for p in pieces:
        out.append('    "%s"sv,' % escape(p))
    out.append('};')


def write_header(path, lines):
    with open(path, 'w', encoding='ascii', newline='\n') as f:
        f.write('\n'.join(lines) + '\n')
