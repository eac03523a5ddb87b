"""`semfp dedup --link components` against the Python package's semfp.dask link="components":
byte-equal clusters and kept documents; and the options digest of `dedup --state` equals
semfp.Options(...).digest. Run by ctest (semfp.tool.components_python) with the built package on
PYTHONPATH: components_dask.py TOOL WORK_DIR SAMPLE."""

import os
import random
import shutil
import struct
import subprocess
import sys

import semfp
import semfp.dask


def planted(path, seed):
    """Chains of small edits (neighbours near, ends far apart), near and exact copies, singletons,
    shuffled: single-pass and components differ on them."""
    rng = random.Random(seed)
    vocab = [chr(c) for c in range(0x4E00, 0x4E00 + 2500)]
    docs = []
    for _ in range(120):
        text = [rng.choice(vocab) for _ in range(60)]
        for _ in range(6):
            docs.append("".join(text))
            for _ in range(2):
                text[rng.randrange(len(text))] = rng.choice(vocab)
        docs.append("".join(rng.choice(vocab) for _ in range(40)))
        docs.append(docs[-3][:-1] + "。")
        docs.append(docs[-1])
    rng.shuffle(docs)
    with open(path, "w", encoding="utf-8") as f:
        for i, d in enumerate(docs):
            f.write('{"id": "d%d", "text": "%s"}\n' % (i, d))


def main():
    tool, work, sample = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    corpus = os.path.join(work, "planted.jsonl")
    planted(corpus, 7)
    from distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None)
    client = Client(cluster)
    failures = []
    try:
        for name, path, extra in (("planted", corpus, []), ("sample", sample, []), ("sample-hd8", sample, ["--hd", "8"])):
            opts = semfp.Options(hd=int(extra[1])) if extra else semfp.Options()
            out_dir = os.path.join(work, name)
            shutil.rmtree(out_dir, ignore_errors=True)  # a fresh run, not a resume of an older build's
            semfp.dask.dedup([path], out_dir, client, options=opts, keep=True, link="components", block_bytes=32 << 10)
            parts = b"".join(open(os.path.join(out_dir, p), "rb").read()
                             for p in sorted(os.listdir(out_dir)) if p.startswith("part-"))
            keeps = b"".join(open(os.path.join(out_dir, p), "rb").read()
                             for p in sorted(os.listdir(out_dir)) if p.startswith("keep-"))
            out, keep = os.path.join(work, name + ".out"), os.path.join(work, name + ".keep")
            subprocess.run([tool, "dedup", path, "--link", "components", "--quiet", "--out", out, "--keep", keep,
                            *extra], check=True)
            sp = subprocess.run([tool, "dedup", path, "--quiet", *extra], check=True, stdout=subprocess.PIPE).stdout
            tool_out, tool_keep = open(out, "rb").read(), open(keep, "rb").read()
            if tool_out != parts:
                failures.append(f"{name}: clusters differ from semfp.dask link='components'")
            if tool_keep != keeps:
                failures.append(f"{name}: kept documents differ")
            if name == "planted" and tool_out == sp:
                failures.append("planted: components equal single-pass, the corpus does not test chains")
            print(f"{name}: {tool_out.count(chr(10).encode())} lines, "
                  f"{keeps.count(chr(10).encode())} components", file=sys.stderr)
    finally:
        client.close()
        cluster.close()
    # The digest stamped on dedup --state is semfp.Options(...).digest.
    for args, opts in (([], semfp.Options()), (["--verify", "none"], semfp.Options(verify="none")),
                       (["--hd", "3"], semfp.Options(hd=3)),
                       (["--bits", "128", "--match-members"], semfp.Options(bits=128, match_members=True)),
                       (["--tokenizer", "fmm", "--id-field", "key"], semfp.Options(tokenizer="fmm", id_field="key"))):
        state = os.path.join(work, "state.bin")
        if os.path.exists(state):
            os.unlink(state)
        subprocess.run([tool, "dedup", sample, "--quiet", "--out", os.devnull, "--state", state, *args], check=True)
        with open(state, "rb") as f:
            head = f.read(16 + 4 + 16)
        (n,) = struct.unpack_from("<I", head, 16)
        digest = head[20:20 + n].decode()
        if digest != opts.digest:
            failures.append(f"state digest {digest} != semfp.Options digest {opts.digest} for {args}")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
