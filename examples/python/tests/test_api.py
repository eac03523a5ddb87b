"""The Python API against the semfp tool and the library's definitions."""

import os
import pickle

import numpy as np
import pytest

import semfp
from conftest import BAD_INPUT, LINES, SAMPLE


def tool_fingerprints(tool, path, *args):
    out = tool("fingerprint", "--quiet", *args, path).decode()
    return [tuple(line.split("\t")[:2]) for line in out.splitlines()]


@pytest.mark.parametrize("bits", [64, 128])
@pytest.mark.parametrize("extra", [{}, {"tokenizer": "bigram", "hash": "fnv"}])
def test_fingerprints_equal_the_tool(tool, bits, extra):
    o = semfp.Options(bits=bits, **extra)
    expected = tool_fingerprints(tool, SAMPLE, *o.cli_args())
    with open(SAMPLE, "rb") as f:
        data = f.read()
    r = semfp.fingerprint_jsonl(data, options=o)
    assert r.ids == [i for i, _ in expected]
    width = bits // 4
    got = [f"{int(x):0{width}x}" if bits == 64 else f"{int(x[0]):016x}{int(x[1]):016x}" for x in r.fingerprints]
    assert got == [h for _, h in expected]
    # The single-text call agrees with the batch call.
    import json
    records = [json.loads(line) for line in data.decode().splitlines() if line.strip()]
    plain = [i for i, rec in enumerate(records) if rec.get("format") != "html"]  # HTML: text extracted first
    texts = [records[i]["text"] for i in plain]
    assert [f"{semfp.fingerprint(t, options=o):0{width}x}" for t in texts[:50]] == [got[i] for i in plain[:50]]
    many = semfp.fingerprint_many(texts, options=o, threads=2)
    assert many.shape == ((len(texts),) if bits == 64 else (len(texts), 2))
    assert np.array_equal(many, r.fingerprints[plain])


def test_bad_lines_are_skipped_like_the_tool(tool):
    expected = tool_fingerprints(tool, BAD_INPUT)
    with open(BAD_INPUT, "rb") as f:
        r = semfp.fingerprint_jsonl(f.read())
    assert r.ids == [i for i, _ in expected]
    assert len(r.problems) > 0
    assert all(isinstance(line, int) and line > 0 for line, _ in r.problems)
    assert len(r.lines) == len(r.ids)


def test_line_documents_have_the_tools_ids(tool):
    expected = tool_fingerprints(tool, LINES)
    with open(LINES, "rb") as f:
        data = f.read()
    r = semfp.fingerprint_jsonl(data, format="lines")
    assert [f"{int(x):016x}" for x in r.fingerprints] == [h for _, h in expected]
    assert [i.split(":")[-1] for i in r.ids] == [i.split(":")[-1] for i, _ in expected]


def test_odd_texts_have_fingerprints():
    assert semfp.fingerprint("") == semfp.fingerprint(b"")
    assert isinstance(semfp.fingerprint(b"\xff\xfe\x00abc"), int)
    assert semfp.fingerprint("x" * 1_000_000, bits=128) < (1 << 128)
    with pytest.raises(ValueError):
        semfp.fingerprint("\ud800")
    with pytest.raises(TypeError):
        semfp.fingerprint_many([1, 2])
    assert semfp.fingerprint_many([]).shape == (0,)
    assert semfp.fingerprint_many([], bits=128).shape == (0, 2)
    r = semfp.fingerprint_jsonl(b"")
    assert r.ids == [] and r.problems == []


def test_options_are_checked_and_digested():
    with pytest.raises(ValueError):
        semfp.Options(bits=32)
    with pytest.raises(ValueError):
        semfp.Options(tokenizer="whitespace")
    with pytest.raises(ValueError):
        semfp.Options(hd=17)
    assert semfp.Options().digest == semfp.Options(hd=5).digest  # the recommended radius resolved
    assert semfp.Options().digest != semfp.Options(hd=3).digest
    assert semfp.Options().digest != semfp.Options(match_members=True).digest
    assert len(semfp.Options().digest) == 16
    assert semfp.Options().verify == "sketch"
    assert semfp.Options().digest != semfp.Options(verify="none").digest
    with pytest.raises(ValueError):
        semfp.Options(verify="minhash")


def test_digest_names_the_sketch_format(monkeypatch):
    # Work files (semfp.dask blocks, states) holding sketches of another format must not be reused:
    # the digest of a two-stage run changes with the format, that of a one-stage run does not.
    sketch, plain = semfp.Options().digest, semfp.Options(verify="none").digest
    monkeypatch.setattr(semfp._semfp, "signature_format_version", semfp._semfp.signature_format_version - 1)
    assert semfp.Options().digest != sketch
    assert semfp.Options(verify="none").digest == plain


def test_hamming_distance():
    assert semfp.hamming_distance(0, 0) == 0
    assert semfp.hamming_distance(0b1011, 0b0001) == 2
    assert semfp.hamming_distance(1 << 127, 0) == 1


def brute_force_clusters(fps, radius):
    centres, out = [], []
    for i, fp in enumerate(fps):
        best = None
        for c in centres:
            d = bin(int(fps[c]) ^ int(fp)).count("1")
            if d <= radius and (best is None or d < best[1]):
                best = (c, d)
        if best is None:
            centres.append(i)
            out.append(i)
        else:
            out.append(best[0])
    return out


def planted(n, seed):
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 2**63, size=n // 4, dtype=np.uint64)
    fps = []
    for b in base:
        fps.append(b)
        for _ in range(3):
            flip = np.uint64(0)
            for bit in rng.choice(64, size=int(rng.integers(1, 8)), replace=False):
                flip |= np.uint64(1) << np.uint64(bit)
            fps.append(b ^ flip)
    return np.array(fps, dtype=np.uint64)


def test_clusterer_matches_the_definition_and_round_trips(tmp_path):
    fps = planted(400, 1)
    c = semfp.SinglePassClusterer()
    centre, is_new, dist = c.add_many(fps)
    assert centre.tolist() == brute_force_clusters(fps, 5)
    assert int(is_new.sum()) == c.cluster_count
    assert np.all(dist <= 5)
    path = tmp_path / "c.bin"
    c.save(path)
    d = semfp.SinglePassClusterer.load(path)
    assert np.array_equal(d.query_many(np.arange(400))[0], c.query_many(np.arange(400))[0])
    e = pickle.loads(pickle.dumps(c))
    more = planted(40, 2)
    assert np.array_equal(e.add_many(more)[0], c.add_many(more)[0])
    # Artifacts of other options or versions are refused.
    with pytest.raises(semfp.Error):
        semfp.SinglePassClusterer.load(path, hd=3)
    with pytest.raises(semfp.Error):
        semfp.SinglePassClusterer.load(path, bits=128)
    # A corrupt file is refused and leaves the object as it was.
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "bad.bin"
    bad.write_bytes(bytes(data))
    before = len(d)
    with pytest.raises(semfp.Error):
        d._impl.load(str(bad))
    assert len(d) == before
    with pytest.raises(semfp.Error):
        semfp.SinglePassClusterer.load(tmp_path / "missing.bin")


@pytest.mark.parametrize("bits", [64, 128])
def test_hamming_index_finds_exactly_the_neighbours(bits, tmp_path):
    rng = np.random.default_rng(3)
    shape = (300,) if bits == 64 else (300, 2)
    fps = rng.integers(0, 2**63, size=shape, dtype=np.uint64)
    fps[1::3] = fps[0::3][: fps[1::3].shape[0]] ^ np.uint64(0b10110)
    ix = semfp.HammingIndex(bits=bits)
    ix.add_many(fps)
    rows, ids, dists = ix.query_many(fps[:30])
    got = sorted(zip(rows.tolist(), ids.tolist(), dists.tolist()))
    as_int = [int(f) if bits == 64 else (int(f[0]) << 64) | int(f[1]) for f in fps]
    want = sorted((q, i, semfp.hamming_distance(as_int[q], as_int[i])) for q in range(30) for i in range(300)
                  if semfp.hamming_distance(as_int[q], as_int[i]) <= ix.max_k)
    assert got == want
    ix.save(tmp_path / "ix.bin")
    assert len(semfp.HammingIndex.load(tmp_path / "ix.bin", bits=bits)) == 300
    assert len(pickle.loads(pickle.dumps(ix))) == 300


def test_help_reads():
    assert "fingerprint" in semfp.__doc__
    assert semfp.fingerprint.__doc__ and semfp.SinglePassClusterer.add_many.__doc__
    assert os.path.exists(os.path.join(os.path.dirname(semfp.__file__), "__init__.pyi"))


@pytest.mark.parametrize("call,message", [
    (lambda: semfp._semfp.Engine(64, "nope", "default", False),
     "tokenizer must be 'default', 'bigram' or 'fmm', not 'nope'"),
    (lambda: semfp._semfp.Engine(64, "default", "nope", False),
     "hash must be 'default', 'murmur', 'fnv' or 'sdbm', not 'nope'"),
    (lambda: semfp._semfp.Engine(96, "default", "default", False), "bits must be 64 or 128"),
    (lambda: semfp._semfp.Index(96, 3, "d"), "bits must be 64 or 128"),
    (lambda: semfp.fingerprint_jsonl(b"", format="csv"), "format must be 'jsonl' or 'lines', not 'csv'"),
    (lambda: semfp._semfp.Engine(64, "default", "default", False).fingerprint_jsonl(b"", encoding="latin1"),
     "encoding must be 'auto', 'utf-8' or 'gb18030', not 'latin1'"),
    (lambda: semfp._semfp.Engine(64, "default", "default", False).fingerprint_jsonl(b"", html_text="none"),
     "html_text must be 'main' or 'all', not 'none'"),
])
def test_native_option_names_are_checked(call, message):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value) == message


def test_native_option_aliases():
    engine = semfp._semfp.Engine(64, "default", "default", False)
    line = '{"id":"a","text":"重复数据删除"}\n'.encode()
    expected = engine.fingerprint_jsonl(line)[0]
    for encoding in ("detect", "utf8", "utf-8"):
        assert (engine.fingerprint_jsonl(line, encoding=encoding)[0] == expected).all()


@pytest.mark.parametrize("bits", [64, 128])
def test_signatures_equal_the_tool(tool, bits):
    """Fingerprints and sketches equal `semfp fingerprint --verify sketch` (its third column:
    occurrences and the 128 MinHash bins), in batch and one by one."""
    o = semfp.Options(bits=bits)
    out = tool("fingerprint", "--quiet", *o.cli_args(), SAMPLE).decode()
    rows = [line.split("\t") for line in out.splitlines()]
    assert all(len(r) == 3 for r in rows)  # --verify sketch is in the options (and the default)
    with open(SAMPLE, "rb") as f:
        data = f.read()
    r = semfp.fingerprint_jsonl(data, options=o, sketches=True)
    assert r.sketches.shape == (len(rows), 132) and r.sketches.dtype == np.uint8
    bins, features = semfp._semfp.sketch_values(r.sketches)
    assert [f"{int(c)}:{bytes(b).hex()}" for c, b in zip(features, bins)] == [x[2] for x in rows]
    assert semfp.fingerprint_jsonl(data, options=o).sketches is None
    import json
    records = [json.loads(line) for line in data.decode().splitlines() if line.strip()]
    plain = [i for i, rec in enumerate(records) if rec.get("format") != "html"]
    texts = [records[i]["text"] for i in plain]
    fps, sks = semfp.signature_many(texts, options=o, threads=2)
    assert np.array_equal(fps, r.fingerprints[plain]) and np.array_equal(sks, r.sketches[plain])
    for i in plain[:20]:
        fp, sk = semfp.signature(records[i]["text"], options=o)
        assert fp == semfp.fingerprint(records[i]["text"], options=o)
        assert sk == r.sketches[i].tobytes()
    # The exact sketch of a short text, the empty text's sketch, and a row that is no sketch.
    _, short = semfp.signature("\u4e00\u4e8c\u4e09")
    assert int.from_bytes(short[128:], "little") >> 26 == 2  # an exact set of two bigrams
    _, empty = semfp.signature("")
    assert empty == bytes(132)
    with pytest.raises(ValueError):
        semfp._semfp.sketch_values(np.full((1, 132), 255, dtype=np.uint8))


def compare_json(tool, a, b, bits):
    import json
    return json.loads(tool("compare", "--text", "--json", "--bits", str(bits), a, b))


@pytest.mark.parametrize("bits", [64, 128])
def test_rule_is_the_tools(tool, bits):
    """The rule's numbers come from the library (as `semfp compare` prints them) and its decision
    is the tool's, for pairs on both sides of each threshold."""
    rule = semfp.TwoStageRule(bits=bits)
    probe = compare_json(tool, "a", "b", bits)
    assert (rule.radius, rule.accept_distance) == (probe["two_stage_radius"], probe["two_stage_accept_distance"])
    assert 0 < rule.min_similarity < 1 and 0 < rule.short_similarity < 1 and rule.short_features > 0
    assert rule.bands * rule.rows <= 128
    # --hd sets the accept distance; the rule's radius never falls below it.
    limit = semfp._semfp.max_threshold_64 if bits == 64 else semfp._semfp.max_threshold_128
    widest = semfp.TwoStageRule(bits=bits, hd=limit)
    assert widest.accept_distance == limit and widest.radius == max(rule.radius, limit)
    rng = np.random.default_rng(bits)
    vocab = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    pairs = []
    for size, edits in ((300, 5), (300, 15), (300, 25), (300, 45), (20, 1), (20, 3), (8, 1)):
        for _ in range(4):
            a = list(rng.choice(vocab, size=size))
            b = list(a)
            for _ in range(edits):
                b[int(rng.integers(0, size))] = vocab[int(rng.integers(0, 3000))]
            pairs.append(("".join(a), "".join(b)))
    o = semfp.Options(bits=bits)
    fa, sa = semfp.signature_many([a for a, _ in pairs], options=o)
    fb, sb = semfp.signature_many([b for _, b in pairs], options=o)
    got = rule.accepts(fa, sa, fb, sb)
    expected = [compare_json(tool, a, b, bits)["two_stage"] for a, b in pairs]
    assert got.tolist() == expected
    assert any(expected) and not all(expected)
    for (a, b), x, y in zip(pairs, sa, sb):
        j = semfp.estimated_jaccard(x.tobytes(), y.tobytes())
        assert abs(j - compare_json(tool, a, b, bits)["sketch_similarity"]) < 1e-4


@pytest.mark.parametrize("bits,members", [(64, False), (64, True), (128, False)])
def test_two_stage_clusterer_equals_the_tool(tool, tmp_path, bits, members):
    """TwoStageClusterer over the sample's signatures gives `semfp dedup --verify sketch`'s
    centres and distances; it pickles and saves with its digest."""
    import json
    o = semfp.Options(bits=bits, match_members=members)
    args = ["dedup", "--quiet", *o.cli_args(), "--out", str(tmp_path / "out")]
    if members:
        args.append("--match-members")
    tool(*args, SAMPLE)
    expected = [json.loads(line) for line in open(tmp_path / "out", "rb").read().splitlines()]
    with open(SAMPLE, "rb") as f:
        r = semfp.fingerprint_jsonl(f.read(), options=o, sketches=True)
    c = semfp.TwoStageClusterer(o)
    centre, is_new, dist = c.add_many(r.fingerprints, r.sketches)
    assert [r.ids[int(x)] for x in centre] == [e["centre"] for e in expected]
    assert dist.tolist() == [e["distance"] for e in expected]
    assert c.cluster_count == len({e["cluster"] for e in expected}) == int(is_new.sum())
    again = pickle.loads(pickle.dumps(c))
    assert np.array_equal(again.query_many(np.arange(len(r.ids)))[0], centre)
    c.save(str(tmp_path / "ts.bin"))
    assert np.array_equal(semfp.TwoStageClusterer.load(str(tmp_path / "ts.bin"), o).query_many([0, 5])[0],
                          centre[[0, 5]])
    with pytest.raises(semfp.Error):
        semfp.TwoStageClusterer.load(str(tmp_path / "ts.bin"), o.replace(hd=3))
    # Without the sketch stage the tool and the plain clusterer agree, and differ from it here.
    plain = semfp.SinglePassClusterer(o.replace(verify="none")).add_many(r.fingerprints)[0]
    assert not np.array_equal(plain, centre)
