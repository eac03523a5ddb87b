#!/usr/bin/env python3
"""Build the sample data of the semfp tool from PostgreSQL's Simplified Chinese translations.

Source: the zh_CN message catalogs of the Debian 12 packages postgresql-15, postgresql-client-15
and libpq5, version 15.18-0+deb12u1 (PostgreSQL License, see LICENSE.PostgreSQL). The script
reads the compiled catalogs (.mo), so it needs `msgunfmt` (Debian: gettext) and `opencc`
(Debian: opencc), plus python3. Get the catalogs either from an installation
(/usr/share/locale/zh_CN/LC_MESSAGES, the default) or from the packages:

    apt-get download postgresql-15 postgresql-client-15 libpq5
    for d in *.deb; do dpkg-deb -x "$d" pkgs; done
    python3 make_sample.py --catalogs pkgs/usr/share/locale/zh_CN/LC_MESSAGES

Outputs (in the directory of this script unless --out says otherwise):

pg_messages_zh.jsonl
    One JSON object per line: id, text, catalog, variant. Every translated message with at
    least MIN_HAN Han characters, in catalog order (catalogs in CATALOGS order, messages in
    the order of their English originals). Real duplicates: the same message translated in
    several catalogs (programs share code), and the many messages PostgreSQL words alike
    ("could not open file" / "could not read file" ...). Derived near-duplicates, added right
    after a deterministic choice of originals (every VARIANT_EVERY-th long message):
      s2twp      the Traditional Chinese (Taiwan) rendering made by `opencc -c s2twp.json`
      fullwidth  ASCII punctuation replaced by its full-width form (，：；（）！？)
      html       the message inside a small web page with navigation and footer
                 ("format": "html": the tool extracts the visible text first)
pages/
    Files for directory input: four short "articles" (ARTICLE_MESSAGES consecutive backend
    messages each) as .txt, a re-post of the first as an HTML page with navigation and
    full-width punctuation, the second as an HTML page saved in GB18030 (declared by
    <meta charset="gb18030">), and the third with one of its paragraphs deleted.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

CATALOGS = ["postgres-15", "psql-15", "initdb-15", "pg_ctl-15", "pg_upgrade-15", "pg_rewind-15",
            "pgscripts-15", "plpgsql-15", "libpq5-15",
            "pg_controldata-15", "pg_resetwal-15", "pg_verifybackup-15", "pg_amcheck-15"]
MIN_HAN = 20          # shortest message kept, in Han characters
VARIANT_EVERY = 6     # one long message in this many gets derived variants
VARIANT_MIN_HAN = 30  # ... if it has at least this many Han characters
ARTICLE_MESSAGES = 24 # messages per article in pages/
HAN = re.compile(r"[\u3400-\u9fff]")
FULLWIDTH = str.maketrans({",": "，", ":": "：", ";": "；", "(": "（", ")": "）", "!": "！", "?": "？"})


def po_entries(po_text):
    """(msgctxt, msgid, msgstr) of a PO file written by msgunfmt (first plural form only)."""
    entries, cur, key = [], None, None
    for line in po_text.splitlines():
        if line.startswith(("msgctxt ", "msgid ")):
            if cur is not None and key != "msgctxt":
                entries.append(cur)
                cur = None
            if cur is None:
                cur = {"msgctxt": "", "msgid": "", "msgstr": ""}
            key = line.split(" ", 1)[0]
            cur[key] = json.loads(line.split(" ", 1)[1])
        elif line.startswith("msgid_plural "):
            key = "skip"
        elif line.startswith("msgstr[0] ") or line.startswith("msgstr "):
            key = "msgstr"
            cur["msgstr"] = json.loads(line.split(" ", 1)[1])
        elif line.startswith("msgstr["):
            key = "skip"
        elif line.startswith('"') and cur is not None and key in cur:
            cur[key] += json.loads(line)
    if cur is not None:
        entries.append(cur)
    return [(e["msgctxt"], e["msgid"], e["msgstr"]) for e in entries if e["msgid"]]


def clean(text):
    """A message as a reader sees it: trimmed lines, no empty lines at either end."""
    lines = [ln.strip() for ln in text.replace("\t", " ").split("\n")]
    return "\n".join(lines).strip()


def opencc_s2twp(texts):
    joined = "\n\u2063\n".join(t.replace("\n", "\u2062") for t in texts)
    out = subprocess.run(["opencc", "-c", "s2twp.json"], input=joined.encode("utf-8"),
                         stdout=subprocess.PIPE, check=True).stdout.decode("utf-8")
    parts = out.split("\n\u2063\n")
    assert len(parts) == len(texts), "opencc changed the separators"
    return [p.replace("\u2062", "\n") for p in parts]


def html_page(text, title):
    body = "".join(f"<p>{line}</p>\n" for line in
                   text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").split("\n"))
    return ("<!DOCTYPE html>\n<html lang=\"zh-CN\"><head><meta charset=\"utf-8\">"
            f"<title>{title}</title>\n<style>p {{ margin: 0 }}</style></head>\n<body>\n"
            "<nav><a href=\"/\">首页</a> | <a href=\"/docs\">文档</a> | <a href=\"/faq\">常见问题</a></nav>\n"
            f"<main>\n{body}</main>\n<footer>本页内容来自 PostgreSQL 的消息翻译。</footer>\n</body></html>\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--catalogs", default="/usr/share/locale/zh_CN/LC_MESSAGES")
    ap.add_argument("--out", default=here)
    args = ap.parse_args()

    docs, digests = [], []
    for name in CATALOGS:
        path = os.path.join(args.catalogs, name + ".mo")
        if not os.path.exists(path):
            sys.exit(f"missing {path} (see the comment at the top of this script)")
        with open(path, "rb") as f:
            digests.append((name, hashlib.sha256(f.read()).hexdigest()))
        po = subprocess.run(["msgunfmt", "--no-wrap", path], stdout=subprocess.PIPE, check=True).stdout
        for n, (ctxt, msgid, msgstr) in enumerate(po_entries(po.decode("utf-8"))):
            text = clean(msgstr)
            if len(HAN.findall(text)) < MIN_HAN:
                continue
            key = hashlib.sha1((ctxt + "\x04" + msgid).encode("utf-8")).hexdigest()[:8]
            docs.append({"id": f"{name}/{key}", "text": text, "catalog": name, "variant": "original"})

    long_docs = [d for d in docs if len(HAN.findall(d["text"])) >= VARIANT_MIN_HAN]
    chosen = long_docs[::VARIANT_EVERY]
    twins = dict(zip((d["id"] for d in chosen), opencc_s2twp([d["text"] for d in chosen])))
    out_docs = []
    for d in docs:
        out_docs.append(d)
        if d["id"] not in twins:
            continue
        base = {"catalog": d["catalog"]}
        out_docs.append({"id": d["id"] + "#s2twp", "text": twins[d["id"]], **base, "variant": "s2twp"})
        full = d["text"].translate(FULLWIDTH)
        if full != d["text"]:
            out_docs.append({"id": d["id"] + "#fullwidth", "text": full, **base, "variant": "fullwidth"})
        out_docs.append({"id": d["id"] + "#html", "text": html_page(d["text"], "PostgreSQL 消息"), **base,
                         "variant": "html", "format": "html"})

    jsonl = os.path.join(args.out, "pg_messages_zh.jsonl")
    with open(jsonl, "w", encoding="utf-8", newline="\n") as f:
        for d in out_docs:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")

    # A directory of pages: short articles made of ARTICLE_MESSAGES consecutive messages, each
    # with a re-post (HTML page, full-width punctuation), one saved in GB18030, one edited.
    pages = os.path.join(args.out, "pages")
    os.makedirs(pages, exist_ok=True)
    for old in os.listdir(pages):
        os.remove(os.path.join(pages, old))
    originals = [d["text"] for d in docs if d["catalog"] == "postgres-15"]
    articles = ["\n\n".join(originals[k * ARTICLE_MESSAGES:(k + 1) * ARTICLE_MESSAGES]) for k in range(1, 5)]

    def write(name, text, encoding="utf-8"):
        with open(os.path.join(pages, name), "wb") as f:
            f.write(text.encode(encoding))

    write("article1.txt", articles[0] + "\n")
    write("article1_repost.html", html_page(articles[0].translate(FULLWIDTH), "转载：PostgreSQL 消息"))
    write("article2.txt", articles[1] + "\n")
    write("article2_gb18030.html",
          html_page(articles[1], "PostgreSQL 消息").replace('charset="utf-8"', 'charset="gb18030"'), "gb18030")
    write("article3.txt", articles[2] + "\n")
    paragraphs = articles[2].split("\n\n")
    write("article3_edited.txt", "\n\n".join(paragraphs[:3] + paragraphs[4:]) + "\n")
    write("article4.txt", articles[3] + "\n")

    print(f"{jsonl}: {len(out_docs)} documents ({len(docs)} messages, {len(chosen)} with variants)")
    for name, digest in digests:
        print(f"  {name}.mo sha256 {digest}")


if __name__ == "__main__":
    main()
