#!/usr/bin/env bash
# End-to-end validation benchmark (issue: one validation core), side by side
# in one run against a peer: the crates.io `urn` crate's parse-only loop.
#
#   bash bench/batch.sh [LINES]      (default 1000000)
#
# Generates a deterministic corpus (examples/gen_corpus.rs), then times each
# run (best of 5, wall clock; peak memory from GNU time) and prints its
# throughput as a multiple of the peer's:
#   - urnreg check --format jsonl -          (full validation, every object)
#   - urnreg check -q --summary -            (full validation, counts only)
#   - urnreg check --syntax-only --format jsonl -
# with --jobs at its default (one per core). Then the start-up cost of one
# `urnreg check URN` with no database against /bin/true, and the peak
# memory of a stream of 300 lines of 1 MB each (bounded by the chunk pool).
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --profile release-lto --quiet --bin urnreg --example gen_corpus --example peer_parse
bin=target/release-lto
"$bin/examples/gen_corpus" "$lines" > "$work/corpus.txt"
echo "corpus: $lines lines, $(wc -c < "$work/corpus.txt") bytes; $(nproc) cores"
export URNREG_DB="$work/none.db"   # no database: the embedded registry

# measure NAME INPUT COMMAND...: the best wall time of 5 runs, read with a
# nanosecond clock (GNU time's own is in hundredths of a second, too
# coarse for runs of a tenth of a second), and the peak RSS of that run.
measure() {
  local name=$1 input=$2; shift 2
  local best="" rss="" start end ns
  for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$work/time" "$@" < "$input" > /dev/null 2>"$work/err" || true
    end=$(date +%s%N)
    ns=$((end - start))
    if [[ -z $best ]] || (( ns < best )); then best=$ns; rss=$(tail -n 1 "$work/time"); fi
  done
  awk -v ns="$best" -v kb="$rss" 'BEGIN{ printf "%.4f %s\n", ns / 1e9, kb }' > "$work/result-$name"
}

measure peer "$work/corpus.txt" "$bin/examples/peer_parse"
measure jsonl "$work/corpus.txt" "$bin/urnreg" check --format jsonl -
measure quiet "$work/corpus.txt" "$bin/urnreg" check -q --summary -
measure syntax "$work/corpus.txt" "$bin/urnreg" check --syntax-only --format jsonl -

read -r peer_s peer_kb < "$work/result-peer"
printf '%-44s %8s %12s %8s %9s %8s\n' run seconds lines/s "x peer" "max RSS" target
row() { # key label target
  read -r s kb < "$work/result-$1"
  awk -v n="$lines" -v s="$s" -v p="$peer_s" -v kb="$kb" -v label="$2" -v target="$3" 'BEGIN{
    printf "%-44s %8.3f %12.0f %7.2fx %6.1f MB %8s\n", label, s, (s>0?n/s:0), (s>0?p/s:0), kb/1024, target }'
}
row peer "urn crate, parse only (peer)" ""
row jsonl "urnreg check --format jsonl -" ">= 1.0x"
row quiet "urnreg check -q --summary -" ">= 2.0x"
row syntax "urnreg check --syntax-only --format jsonl -" ">= 1.5x"

# Start-up: one URN, no database, against /bin/true (200 runs each).
runs=200
startup() {
  local start end
  start=$(date +%s%N)
  for _ in $(seq "$runs"); do "$@" > /dev/null; done
  end=$(date +%s%N)
  echo $(( (end - start) / runs ))
}
true_ns=$(startup /bin/true)
check_ns=$(startup "$bin/urnreg" check urn:isbn:9780306406157)
awk -v t="$true_ns" -v c="$check_ns" 'BEGIN{
  printf "one check URN, no database: %.2f ms; /bin/true %.2f ms: %.2fx (target <= 2.5x)\n", c/1e6, t/1e6, c/t }'

# Long lines: 300 lines of 1 MB each, memory stays bounded.
awk 'BEGIN{ s = "urn:example:"; while (length(s) < 1000000) s = s "a"; for (i = 0; i < 300; i++) print s }' > "$work/long.txt"
measure long "$work/long.txt" "$bin/urnreg" check --format jsonl -
read -r s kb < "$work/result-long"
awk -v s="$s" -v kb="$kb" 'BEGIN{ printf "300 lines of 1 MB, check --format jsonl: %.2f s, %.1f MB max RSS\n", s, kb/1024 }'
