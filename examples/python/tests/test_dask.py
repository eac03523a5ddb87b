"""semfp.dask against `semfp dedup`: byte equality, a worker lost mid-run, resumption, hash-seed
independence."""

import glob
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import semfp
import semfp.dask
from conftest import SAMPLE


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def concatenated(out_dir, prefix):
    return b"".join(open(p, "rb").read() for p in sorted(glob.glob(os.path.join(out_dir, prefix + "-*.jsonl"))))


def tool_dedup(tool, tmp_path, inputs, options, *extra):
    out, keep = tmp_path / "tool.out", tmp_path / "tool.keep"
    args = ["dedup", "--quiet", "--threads", "2", *options.cli_args(), "--out", str(out), "--keep", str(keep)]
    if options.hd is not None:
        args += ["--hd", str(options.hd)]
    if options.match_members:
        args.append("--match-members")
    tool(*args, *extra, *inputs)
    return out.read_bytes(), keep.read_bytes()


def planted_corpus(path, n_chains, seed):
    """Chains of one-character edits (each step near the last, the ends far apart), singletons and
    near copies, shuffled so that neighbours lie in different blocks."""
    rng = np.random.default_rng(seed)
    vocab = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    docs = []
    for c in range(n_chains):
        text = list(rng.choice(vocab, size=60))
        for step in range(6):
            docs.append("".join(text))
            for _ in range(2):
                text[int(rng.integers(0, len(text)))] = vocab[int(rng.integers(0, len(vocab)))]
        docs.append("".join(rng.choice(vocab, size=40)))  # a singleton
        docs.append(docs[-4][:-1] + "。")                 # a near copy of a chain member
        docs.append(docs[-1])                             # and an exact copy of that
    order = rng.permutation(len(docs))
    with open(path, "w", encoding="utf-8") as f:
        for i, k in enumerate(order):
            f.write(json.dumps({"id": f"d{i}", "text": docs[k]}, ensure_ascii=False) + "\n")
    return len(docs)


def sketch_corpus(path, n_bases, seed):
    """Near copies that only the sketch stage finds: long texts and copies with about 5 % of the
    characters replaced (Hamming distance mostly beyond the radius, sketch similarity above the
    rule's), short texts (below the rule's short_features) with one character replaced, chains of
    such edits, exact copies and unrelated texts, shuffled over the blocks."""
    rng = np.random.default_rng(seed)
    vocab = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    docs = []

    def edited(text, k):
        text = list(text)
        for _ in range(k):
            text[int(rng.integers(0, len(text)))] = vocab[int(rng.integers(0, len(vocab)))]
        return "".join(text)

    for _ in range(n_bases):
        base = "".join(rng.choice(vocab, size=int(rng.integers(250, 400))))
        docs.append(base)
        docs.append(edited(base, int(rng.integers(10, 20))))          # a sketch twin
        step = base
        for _ in range(int(rng.integers(0, 3))):                       # a chain of twins
            step = edited(step, 12)
            docs.append(step)
        if rng.random() < 0.3:
            docs.append(base)                                          # an exact copy
        short = "".join(rng.choice(vocab, size=int(rng.integers(12, 25))))
        docs += [short, edited(short, 1)]                              # short texts
        docs.append("".join(rng.choice(vocab, size=300)))              # unrelated
    order = rng.permutation(len(docs))
    with open(path, "w", encoding="utf-8") as f:
        for i, k in enumerate(order):
            f.write(json.dumps({"id": f"s{i}", "text": docs[k]}, ensure_ascii=False) + "\n")
    return len(docs)


@pytest.mark.parametrize("verify", ["none", "sketch"])
@pytest.mark.parametrize("bits,members", [(64, False), (64, True), (128, False), (128, True)])
def test_sample_equals_the_tool(client, tool, tmp_path, bits, members, verify):
    o = semfp.Options(bits=bits, match_members=members, verify=verify)
    out, keep = tool_dedup(tool, tmp_path, [SAMPLE, SAMPLE], o)
    stats = semfp.dask.dedup([SAMPLE, SAMPLE], str(tmp_path / "dask"), client, options=o, keep=True,
                             block_bytes=16 << 10)
    assert stats["blocks"] > 4
    assert concatenated(tmp_path / "dask", "part") == out
    assert concatenated(tmp_path / "dask", "keep") == keep


def test_planted_corpus_equals_the_tool(client, tool, tmp_path):
    big, small = tmp_path / "planted.jsonl", tmp_path / "planted_small.jsonl"
    sizes = {big: planted_corpus(big, 5600, 7), small: planted_corpus(small, 1400, 8)}
    assert sizes[big] >= 50_000
    # 128 bits at radius 15 costs several times more per document: a smaller corpus keeps the
    # suite within its time budget.
    for bits, corpus in ((64, big), (128, small)):
        n = sizes[corpus]
        o = semfp.Options(bits=bits)
        out, keep = tool_dedup(tool, tmp_path, [str(corpus)], o)
        d = tmp_path / f"dask{bits}"
        block = (512 << 10) if bits == 64 else (128 << 10)
        stats = semfp.dask.dedup([str(corpus)], str(d), client, options=o, keep=True, block_bytes=block,
                                 partitions=4)
        assert stats["documents"] == n and stats["blocks"] >= 10
        assert stats["clusters"] < n * 0.7  # chains and copies were found
        assert concatenated(d, "part") == out
        assert concatenated(d, "keep") == keep
        # A key shuffle: the candidate tasks together read the shuffle files once (plus each
        # block's header once per task), not every fingerprint once per task.
        v, p = stats["bytes"], stats["partitions"]
        assert p == 4
        assert v["candidates_read"] <= v["shuffle_written"] + p * stats["blocks"] * 1024
        assert v["write_read"] < v["fingerprint_written"]  # own ids only
        if bits == 64:  # a second run reuses every finished block and writes the same bytes, also
            # with another partition count (the blocks' records are re-split from their fingerprints)
            again = semfp.dask.dedup([str(corpus)], str(d), client, options=o, keep=True, block_bytes=512 << 10,
                                     partitions=p + 3)
            assert again["blocks_reused"] == again["blocks"] and again["partitions"] == p + 3
            assert concatenated(d, "part") == out
            assert concatenated(d, "keep") == keep


@pytest.mark.parametrize("bits", [64, 128])
def test_sketch_stage_equals_the_tool(client, tool, tmp_path, bits):
    """Byte equality with `semfp dedup --verify sketch` on near copies only the sketch finds, for
    single-pass (centres, members) and components; the sketch stage is shown to matter."""
    corpus = tmp_path / "sketch.jsonl"
    n = sketch_corpus(corpus, 700 if bits == 64 else 500, 21 + bits)
    rule = semfp.TwoStageRule(bits=bits)
    assert rule.radius > rule.accept_distance  # the library's numbers, through the binding
    none_out, _ = tool_dedup(tool, tmp_path, [str(corpus)], semfp.Options(bits=bits, verify="none"))
    for members, link in ((False, "single-pass"), (True, "single-pass"), (False, "components")):
        o = semfp.Options(bits=bits, match_members=members)
        assert o.verify == "sketch"  # the default
        extra = ("--link", "components") if link == "components" else ()
        out, keep = tool_dedup(tool, tmp_path, [str(corpus)], o, *extra)
        d = tmp_path / f"dask-{members}-{link}"
        stats = semfp.dask.dedup([str(corpus)], str(d), client, options=o, keep=True, link=link,
                                 block_bytes=256 << 10, partitions=5)
        assert stats["documents"] == n and stats["blocks"] >= 8
        assert concatenated(d, "part") == out
        assert concatenated(d, "keep") == keep
        if link == "single-pass" and not members:
            # The sketch stage found pairs beyond the radius that Hamming distance alone misses.
            rows = [json.loads(l) for l in out.splitlines()]
            plain = [json.loads(l) for l in none_out.splitlines()]
            beyond = [r for r in rows if r["distance"] > rule.accept_distance]
            assert len(beyond) >= 50
            assert len({r["cluster"] for r in rows}) < len({r["cluster"] for r in plain}) - 50
            v = stats["bytes"]
            assert v["candidates_read"] <= v["shuffle_written"] + 5 * stats["blocks"] * 1024
    # A rerun reuses every block, also with another partition count, and writes the same bytes.
    again = semfp.dask.dedup([str(corpus)], str(tmp_path / "dask-False-single-pass"), client, keep=True,
                             options=semfp.Options(bits=bits), block_bytes=256 << 10, partitions=3)
    assert again["blocks_reused"] == again["blocks"]
    out, keep = tool_dedup(tool, tmp_path, [str(corpus)], semfp.Options(bits=bits))
    assert concatenated(tmp_path / "dask-False-single-pass", "part") == out


def test_components_link_is_single_linkage(client, tmp_path):
    corpus = tmp_path / "planted.jsonl"
    n = planted_corpus(corpus, 300, 11)
    semfp.dask.dedup([str(corpus)], str(tmp_path / "sp"), client, block_bytes=64 << 10)
    semfp.dask.dedup([str(corpus)], str(tmp_path / "cc"), client, link="components", block_bytes=64 << 10)
    sp = [json.loads(l) for l in concatenated(tmp_path / "sp", "part").splitlines()]
    cc = [json.loads(l) for l in concatenated(tmp_path / "cc", "part").splitlines()]
    assert len(sp) == len(cc) == n
    # Components are unions of single-pass clusters, so there are no more of them.
    assert len({r["cluster"] for r in cc}) <= len({r["cluster"] for r in sp})
    by_cluster = {}
    for s, c in zip(sp, cc):
        by_cluster.setdefault(s["cluster"], set()).add(c["cluster"])
    assert all(len(v) == 1 for v in by_cluster.values())


def run_module(args, env_extra, **kw):
    env = dict(os.environ, **env_extra)
    return subprocess.Popen([sys.executable, "-m", "semfp.dask", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, **kw)


def test_hash_seeds_do_not_change_the_bytes(tmp_path):
    outs = []
    for seed in ("1", "4242"):
        d = tmp_path / f"seed{seed}"
        p = run_module([SAMPLE, SAMPLE, "--out", str(d), "--block-mb", "0.02"], {"PYTHONHASHSEED": seed})
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode(errors="replace")
        outs.append(concatenated(d, "part"))
    assert outs[0] == outs[1] and outs[0]


def test_a_killed_run_resumes(tool, tmp_path):
    corpus = tmp_path / "planted.jsonl"
    planted_corpus(corpus, 2000, 5)
    out, _ = tool_dedup(tool, tmp_path, [str(corpus)], semfp.Options())
    d = tmp_path / "dask"
    args = [str(corpus), "--out", str(d), "--block-mb", "0.05"]
    p = run_module(args, {})
    deadline = time.time() + 120
    while time.time() < deadline and len(glob.glob(str(d / ".semfp-work" / "fp-*.npz"))) < 3:
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGKILL)  # the client, the scheduler and the workers
    p.wait()
    finished = len(glob.glob(str(d / ".semfp-work" / "fp-*.npz")))
    assert finished >= 3
    q = run_module(args, {})
    _, err = q.communicate(timeout=300)
    assert q.returncode == 0, err.decode(errors="replace")
    stats = json.loads(err.decode().strip().splitlines()[-1])
    assert stats["blocks_reused"] >= 3
    assert concatenated(d, "part") == out


class KillOnce:
    """A worker plugin that SIGKILLs the worker process it runs in as soon as a task whose key
    starts with ``prefix`` begins executing there; once in the whole cluster (the first worker to
    create ``marker`` wins; the file records its pid). The kill lands while the scheduler counts
    the task as processing on that worker, so the task must be rescheduled."""

    name = "semfp-kill-once"

    def __init__(self, prefix, marker):
        self.prefix = prefix
        self.marker = marker

    def setup(self, worker):
        pass

    def teardown(self, worker):
        pass

    def transition(self, key, start, finish, **kwargs):
        if finish != "executing" or not str(key).startswith(self.prefix):
            return
        try:
            fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)


@pytest.fixture
def fresh_client():
    """Two worker processes of a cluster of its own: each case starts with both workers, whether
    or not the nanny of an earlier case's killed worker managed to restart it."""
    from distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def kill_corpus(tmp_path_factory, tool):
    d = tmp_path_factory.mktemp("kill")
    corpus = d / "planted.jsonl"
    planted_corpus(corpus, 400, 13)
    return str(corpus), tool_dedup(tool, d, [str(corpus)], semfp.Options())


@pytest.mark.parametrize("stage", ["_fingerprint_block", "_candidates", "_replay", "_centre_ids", "_write_block"])
def test_a_worker_killed_mid_run(fresh_client, kill_corpus, tmp_path, stage):
    corpus, (out, keep) = kill_corpus
    c = fresh_client
    c.wait_for_workers(2, timeout=60)
    before = set(c.run(os.getpid).values())
    marker = tmp_path / "killed.pid"
    c.register_worker_plugin(KillOnce(stage + "-", str(marker)))
    stats = semfp.dask.dedup([corpus], str(tmp_path / "dask"), c, keep=True, block_bytes=32 << 10)
    killed = int(marker.read_text())  # a worker really died in that stage, holding one of its tasks
    assert killed in before
    assert killed not in set(c.run(os.getpid).values())
    assert stats["blocks"] >= 8
    assert concatenated(tmp_path / "dask", "part") == out
    assert concatenated(tmp_path / "dask", "keep") == keep


def padded_line(doc_id, text, size, end=b"\n"):
    """A JSON line of exactly ``size`` bytes before ``end`` (the text padded with spaces)."""
    line = json.dumps({"id": doc_id, "text": text}, ensure_ascii=False).encode()
    assert len(line) <= size
    return line[:-2] + b" " * (size - len(line)) + line[-2:] + end


def test_max_document_size_skips_lines_like_the_tool(client, tool, tmp_path):
    """Lines longer than --max-document-size (CR included, line feed not) are skipped at read
    time, whichever block they fall in, with the tool's message; the rest is byte-identical."""
    limit = 1500
    sample = [json.loads(l) for l in open(SAMPLE, "rb").read().splitlines() if l.strip()]
    lines = [json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in sample]
    # Near copies of sample documents, padded: kept they would join clusters, so skipping shows.
    too_long = {0: padded_line("long-first", sample[3]["text"], limit + 1),
                150: padded_line("long-crlf", sample[150]["text"], limit, b"\r\n"),  # limit + CR
                400: padded_line("long-mid", sample[400]["text"], 3 * limit)}
    fits = {200: padded_line("fits", sample[200]["text"], limit),
            300: padded_line("fits-crlf", sample[300]["text"], limit - 1, b"\r\n")}
    out_lines = []
    for i, l in enumerate(lines):
        out_lines += [too_long.get(i, b""), fits.get(i, b""), l]
    out_lines.append(padded_line("long-last", sample[500]["text"], limit + 7, b""))  # no final line feed
    data = b"".join(x for x in out_lines if x)
    corpus = tmp_path / "long.jsonl"
    corpus.write_bytes(data)
    skipped = [i + 1 for i, l in enumerate(data.split(b"\n")) if len(l) > limit]
    assert len(skipped) == 4

    r = semfp.fingerprint_jsonl(data, max_document_size=limit)
    assert [line for line, _ in r.problems] == skipped
    assert all("longer than the maximum document size (1500 bytes; see --max-document-size), skipped" in m
               for _, m in r.problems)
    assert {"fits", "fits-crlf"} <= set(r.ids) and not {"long-first", "long-crlf", "long-mid", "long-last"} & set(r.ids)
    assert len(semfp.fingerprint_jsonl(data).ids) == len(r.ids) + 4  # the default limit keeps them

    o = semfp.Options()
    out, keep = tool_dedup(tool, tmp_path, [str(corpus)], o, "--max-document-size", str(limit))
    d = tmp_path / "dask"
    stats = semfp.dask.dedup([str(corpus)], str(d), client, options=o, keep=True, block_bytes=16 << 10,
                             max_document_size=limit)
    assert stats["blocks"] > 4 and stats["problems"] == 4
    assert concatenated(d, "part") == out
    assert concatenated(d, "keep") == keep
    unlimited, _ = tool_dedup(tool, tmp_path, [str(corpus)], o)
    assert unlimited != out  # the skipped lines would have changed the output
    # The command line takes the tool's size syntax; a rerun with another limit does not reuse blocks.
    p = run_module([str(corpus), "--out", str(d), "--block-mb", "0.016", "--max-document-size", "1500"], {})
    _, err = p.communicate(timeout=300)
    assert p.returncode == 0, err.decode(errors="replace")
    assert concatenated(d, "part") == out
    again = semfp.dask.dedup([str(corpus)], str(d), client, options=o, block_bytes=16 << 10, max_document_size=2 << 10)
    assert again["blocks_reused"] < again["blocks"] and again["problems"] == 1
    assert concatenated(d, "part") == tool_dedup(tool, tmp_path, [str(corpus)], o, "--max-document-size", "2k")[0]
