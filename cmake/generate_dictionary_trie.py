#!/usr/bin/env python3
"""Writes include/semfp/dict/embedded_trie_data.hpp: the bundled word list as two precomputed
double-array tries (words and reversed words), so a program maps them from its read-only data
instead of building them at run time.

Called by cmake/generate_dictionary_trie.cmake (`cmake -P`); standard library only,
deterministic output. The words are the ones of embedded_data.hpp (same selection rules, see
generate_dictionary.py).

Layout (all integers little-endian):
- char map: one 16-bit id per code point in [map_first, map_last], 0 for a code point that no
  word uses. Ids are given by decreasing frequency (1 = the most frequent character).
- each trie: records of 5 bytes, record t = check (16 bits: bit 15 terminal, bits 0..14 the id of
  the character that leads to it, 0 for a free record) then base (24 bits); nodes of frequent
  words are placed first (see build_double_array). The child of the
  node in record s for character id c is record base(s) + c when check(t) & 0x7FFF == c. Bases of
  nodes with children are unique, so the check label alone identifies the parent; every leaf has
  base 1, which no other node uses. The root is record 0 with base 0. The array is padded so that
  base + id never leaves it and an 8-byte load at any record stays inside it.
- the arrays are emitted as rows of ROW_BYTES bytes (`char rows[][ROW_BYTES]`, each row one
  string literal of at most ROW_BYTES - 1 bytes, below the 64 KiB that clang accepts in one
  literal without a warning, written in pieces of at most 4000 bytes), so the
  last byte of every row must be 0: records holding such a byte are left free, and the char map
  gives ids below 256 to the code points whose high byte lands there.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate_dictionary import dictionary_words  # noqa: E402 (same word selection)
from jieba_pieces import (PIECE_BYTES, banner, close_namespace, escape_binary,  # noqa: E402
                          open_namespace, read_dict_entries, write_header)

ROW_BYTES = 32768
RECORD = 5
LEAF_BASE = 1


def read_words(path):
    digest, words, _ = dictionary_words(path)
    # jieba's frequency column (0 where a line has none), which orders the nodes' placement.
    _, entries, _ = read_dict_entries(path)
    freq = {w: int(f[1]) if len(f) > 1 and f[1].isdigit() else 0 for w, f in entries.items()}
    return digest, words, freq


def char_ids(words):
    counts = {}
    for w in words:
        for ch in w:
            counts[ch] = counts.get(ch, 0) + 1
    for ch in counts:
        cp = ord(ch)
        if not 0x800 <= cp <= 0xFFFF or 0xD800 <= cp <= 0xDFFF:
            raise SystemExit('generate_dictionary_trie: U+%04X is not a three-byte character; '
                             'the precomputed layout covers the BMP only' % cp)
    ranked = sorted(counts, key=lambda ch: (-counts[ch], ord(ch)))
    if len(ranked) >= 0x7FFF:
        raise SystemExit('generate_dictionary_trie: too many distinct characters')
    ids = {ch: i + 1 for i, ch in enumerate(ranked)}
    first = min(ord(ch) for ch in ids)
    last = max(ord(ch) for ch in ids)
    # The high byte of every 16-bit entry that ends a row must be 0: give such code points an
    # id below 256 (swap with a frequent character that sits elsewhere).
    per_row = ROW_BYTES // 2
    by_id = {i: ch for ch, i in ids.items()}
    boundary = {first + k for k in range(per_row - 1, last - first + 1, per_row)}
    spare = [i for i in range(1, min(256, len(ranked) + 1)) if ord(by_id[i]) not in boundary]
    for cp in sorted(boundary):
        ch = chr(cp)
        if ch in ids and ids[ch] >= 256:
            j = spare.pop()
            other = by_id[j]
            ids[ch], ids[other] = j, ids[ch]
            by_id[ids[ch]], by_id[ids[other]] = ch, other
    return ids, first, last


def build_trie(words, freqs):
    """Nodes as (children dict label->node, terminal flag, weight); node 0 is the root. The
    weight of a node is the total frequency (freqs[i] for words[i]) of the words through it."""
    children = [{}]
    terminal = [False]
    weight = [0]
    for w, f in zip(words, freqs):
        node = 0
        weight[0] += f
        for c in w:
            nxt = children[node].get(c)
            if nxt is None:
                nxt = len(children)
                children[node][c] = nxt
                children.append({})
                terminal.append(False)
                weight.append(0)
            node = nxt
            weight[node] += f
        terminal[node] = True
    return children, terminal, weight


def blocked_bits(lo, n):
    """Bit i set when record lo + i (i < n) holds the last byte of a row (such records stay
    free: the row's string literal ends there with its NUL)."""
    bits = 0
    r = ((lo * RECORD) // ROW_BYTES) * ROW_BYTES + ROW_BYTES - 1
    while r // RECORD < lo + n:
        t = r // RECORD
        if t >= lo:
            bits |= 1 << (t - lo)
        r += ROW_BYTES
    return bits


class BitBlocks:
    """A growable bit set stored as blocks of BLOCK bits, so that reading or setting a window
    costs time in the window's size, not the set's."""

    BLOCK = 4096
    FULL = (1 << 4096) - 1

    def __init__(self, fill=None):
        self.blocks = []
        self.fill = fill  # fill(k): the bits block k starts with

    def _ensure(self, k):
        while len(self.blocks) <= k:
            self.blocks.append(self.fill(len(self.blocks)) if self.fill else 0)

    def test(self, i):
        k = i // self.BLOCK
        self._ensure(k)
        return (self.blocks[k] >> (i - k * self.BLOCK)) & 1

    def get(self, lo, n):
        k0 = lo // self.BLOCK
        k1 = (lo + n - 1) // self.BLOCK
        self._ensure(k1)
        acc = 0
        for k in range(k1, k0 - 1, -1):
            acc = (acc << self.BLOCK) | self.blocks[k]
        return (acc >> (lo - k0 * self.BLOCK)) & ((1 << n) - 1)

    def set(self, mask, lo):
        k = lo // self.BLOCK
        m = mask << (lo - k * self.BLOCK)
        while m:
            self._ensure(k)
            self.blocks[k] |= m & self.FULL
            m >>= self.BLOCK
            k += 1

    def first_zero(self, lo):
        k = lo // self.BLOCK
        x = 0
        while True:
            self._ensure(k)
            x = self.blocks[k] >> (lo - k * self.BLOCK)
            z = ((x + 1) & ~x).bit_length() - 1
            if lo + z < (k + 1) * self.BLOCK:
                return lo + z
            k += 1
            lo = k * self.BLOCK


def build_double_array(children, terminal, weight, ids):
    nodes_label = {}
    for kids in children:
        for c, child in kids.items():
            nodes_label[child] = c
    # Records: the root is record 0; every other node's record is its parent's base plus its
    # character id. Bases are chosen first-fit (the lowest base whose records are all free, from
    # the base of the previous node with as many children on), the heaviest nodes first (weight:
    # the total jieba frequency of the words through the node), ties in breadth-first order. So
    # the records that text visits most, and the records that walks from frequent nodes probe
    # and miss, are packed at the start of the array and stay in the processor's caches: with
    # the nodes placed by their number of children instead (a denser array by 2 %), forward
    # segmentation of Chinese text ran 1.1-1.2x slower. The search runs on Python integers used
    # as bit sets, a window at a time.
    order = [0]
    for node in order:
        order.extend(sorted(children[node].values(), key=lambda n: ids[nodes_label[n]]))
    internal = [n for n in order if children[n]]
    rank = {n: i for i, n in enumerate(internal)}
    internal.sort(key=lambda n: (-weight[n], rank[n]))
    taken = BitBlocks(lambda k: blocked_bits(k * BitBlocks.BLOCK, BitBlocks.BLOCK))
    taken.set(1, 0)  # record 0 is the root
    used_bases = BitBlocks()
    used_bases.set(1, LEAF_BASE)
    head = 1  # no free record below it
    node_base = {}
    resume = {}
    for node in internal:
        labels = sorted(ids[c] for c in children[node])
        c0 = labels[0]
        top = labels[-1]
        # Nodes with as many children as the previous one rarely fit below its base.
        start = max(0, head - c0, resume.get(len(labels), 0))
        width = 4096
        while True:
            # Bit i of `conflict`: base start + i is taken, or one of its records is.
            t_win = taken.get(start + c0, width + top - c0)
            conflict = used_bases.get(start, width)
            for c in labels:
                conflict |= t_win >> (c - c0)
            low_zero = ((conflict + 1) & ~conflict).bit_length() - 1
            if low_zero < width:
                b = start + low_zero
                break
            start += width
        resume[len(labels)] = b
        used_bases.set(1, b)
        mask = 0
        for c in labels:
            mask |= 1 << c
        taken.set(mask, b)
        node_base[node] = b
        head = taken.first_zero(head)
    size = 1
    for node, b in node_base.items():
        size = max(size, b + len(ids) + 1)
    check = [0] * size
    base = [0] * size
    record = {0: 0}
    for node in order:
        rec = record[node]
        kids = children[node]
        if not kids:
            base[rec] = LEAF_BASE
            continue
        b = node_base[node]
        base[rec] = b
        for c, child in kids.items():
            t = b + ids[c]
            record[child] = t
            check[t] = ids[c] | (0x8000 if terminal[child] else 0)
    # Trim the free records at the end, then pad so that base + id and an 8-byte load at any
    # record stay inside the array.
    used = len(check)
    while used > 1 and check[used - 1] == 0:
        used -= 1
    size = max(used, max(base[:used]) + len(ids) + 1)
    del check[size:]
    del base[size:]
    out = bytearray()
    for t in range(size):
        if base[t] >= 1 << 24:
            raise SystemExit('generate_dictionary_trie: trie too large for 24-bit bases')
        out += (check[t] | (base[t] << 16)).to_bytes(RECORD, 'little')
    out += bytes(3)
    for r in range(ROW_BYTES - 1, len(out), ROW_BYTES):
        assert out[r] == 0, 'a row ends inside a used record'
    nodes = sum(1 for t in range(size) if check[t]) + 1
    return bytes(out), size, nodes


def char_map_bytes(ids, first, last):
    out = bytearray()
    table = {ord(ch): i for ch, i in ids.items()}
    for cp in range(first, last + 1):
        out += table.get(cp, 0).to_bytes(2, 'little')
    for r in range(ROW_BYTES - 1, len(out), ROW_BYTES):
        assert out[r] == 0, 'char map row end byte not free'
    return bytes(out)


def emit_rows(out, name, data):
    # Escapes are converted in each literal before adjacent literals are joined, so a piece may
    # end in a short octal escape whatever the next piece starts with.
    rows = (len(data) + ROW_BYTES - 1) // ROW_BYTES
    # const, not constexpr: clang would evaluate a constexpr array byte by byte (30 s).
    out.append('alignas(8) inline const char %s[%d][%d] = {' % (name, rows, ROW_BYTES))
    for r in range(rows):
        row = data[r * ROW_BYTES:(r + 1) * ROW_BYTES - 1].rstrip(b'\0')
        if not row:
            out.append('    "",')
            continue
        parts = [row[i:i + PIECE_BYTES] for i in range(0, len(row), PIECE_BYTES)]
        if len(parts) == 2:
            # clang's -Wstring-concatenation takes an element of exactly two adjacent literals
            # followed by single literals for a missing comma: never write two.
            parts = [parts[0][:PIECE_BYTES // 2], parts[0][PIECE_BYTES // 2:], parts[1]]
        for k, p in enumerate(parts):
            out.append('    "%s"%s' % (escape_binary(p), ',' if k + 1 == len(parts) else ''))
    out.append('};')


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--source', required=True, help="jieba's dict.txt")
    ap.add_argument('--version', required=True, help='version of the package the source comes from')
    ap.add_argument('--output', required=True)
    args = ap.parse_args()

    digest, words, freq = read_words(args.source)
    ids, first, last = char_ids(words)
    freqs = [freq.get(w, 0) for w in words]
    fwd, fwd_records, fwd_nodes = build_double_array(*build_trie(words, freqs), ids)
    rev, rev_records, rev_nodes = build_double_array(*build_trie([w[::-1] for w in words], freqs), ids)
    cmap = char_map_bytes(ids, first, last)
    max_len = max(len(w) for w in words)

    out = banner('generate_dictionary_trie', 'dict.txt', args.version, digest, [
        'Content: the %d words of embedded_data.hpp as two double-array tries (%d and %d nodes in'
        % (len(words), fwd_nodes, rev_nodes),
        '%d and %d records of %d bytes) over %d character ids; layout in the generator.'
        % (fwd_records, rev_records, RECORD, len(ids)),
    ], 'semfp/dict/embedded.hpp')
    open_namespace(out, 'dict_trie_data', ['cstddef', 'cstdint'])
    out.append('inline constexpr std::size_t word_count = %d;' % len(words))
    out.append('inline constexpr std::size_t max_word_length = %d;' % max_len)
    out.append('inline constexpr char32_t map_first = 0x%X;' % first)
    out.append('inline constexpr char32_t map_last = 0x%X;' % last)
    out.append('inline constexpr std::uint32_t char_count = %d;' % len(ids))
    out.append('inline constexpr std::size_t forward_records = %d;' % fwd_records)
    out.append('inline constexpr std::size_t reverse_records = %d;' % rev_records)
    out.append('')
    emit_rows(out, 'char_map', cmap)
    out.append('')
    emit_rows(out, 'forward', fwd)
    out.append('')
    emit_rows(out, 'reverse', rev)
    out.append('')
    close_namespace(out, 'dict_trie_data')
    write_header(args.output, out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
