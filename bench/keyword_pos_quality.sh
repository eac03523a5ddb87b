#!/bin/sh
# Keyword fingerprints with and without the part-of-speech boost on the DEV pairs, one run:
# fingerprints every document with the tool for each configuration (wall time of each run
# printed), then scores them with bench/signature_quality.py (recall per kind, false positives).
#
#   bench/keyword_pos_quality.sh SEMFP_BINARY PAIRS.jsonl DOCS.jsonl WORKDIR [IDF_FILE]
#
# IDF_FILE defaults to Debian's jieba analyse/idf.txt. Results: WORKDIR/<config>.txt.
set -eu
tool=$1 pairs=$2 docs=$3 work=$4
idf=${5:-/usr/lib/python3/dist-packages/jieba/analyse/idf.txt}
here=$(dirname "$0")
mkdir -p "$work"
run() {
  name=$1
  shift
  start=$(date +%s.%N)
  "$tool" fingerprint "$docs" --method keyword --tokenizer fmm --quiet -o "$work/$name.tsv" "$@"
  end=$(date +%s.%N)
  /usr/bin/python3 "$here/signature_quality.py" "$pairs" "$work/$name.tsv" --label "$name $*" > "$work/$name.txt"
  printf '%s\t%.1f s wall\t%s\n' "$name" "$(echo "$end - $start" | bc)" "$(tail -n 2 "$work/$name.txt" | head -n 1)"
}
for n in 8 16; do
  run "tfidf_n$n" --keywords "$n" --idf "$idf"
  run "tfidf_n${n}_noun2" --keywords "$n" --idf "$idf" --pos-boost 2
  run "tfidf_n${n}_proper2" --keywords "$n" --idf "$idf" --pos-boost 1:2
  run "tfidf_n${n}_noun2_verb1.5" --keywords "$n" --idf "$idf" --pos-boost 2:2:1.5
  run "tfidf_n${n}_noun1.5_proper3" --keywords "$n" --idf "$idf" --pos-boost 1.5:3
  run "tf_n$n" --keywords "$n"
  run "tf_n${n}_noun2" --keywords "$n" --pos-boost 2
done
