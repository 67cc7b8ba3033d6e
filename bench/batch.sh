#!/usr/bin/env bash
# End-to-end batch benchmark, side by side in one run against two peers
# built from the package registry: the crates.io `urn` crate's parse-only
# loop, and `urn-rs` (a SWAR fork of it, the fastest Rust peer we know),
# single-threaded, writing `valid<TAB>key` per line (examples/peer_*.rs).
#
#   bash bench/batch.sh [LINES]      (default 1000000)
#
# Generates a deterministic corpus (examples/gen_corpus.rs), then times each
# run (best of 5, wall clock; peak memory from GNU time) and prints its
# throughput as a multiple of urn-rs's: per core (--jobs 1) and at the
# default jobs (one per core), for check (jsonl, counts only, syntax only)
# and normalize. Then the start-up cost of one `urnreg check URN` with no
# database against /bin/true, and the peak memory of a stream of 300 lines
# of 1 MB each (bounded by the chunk pool).
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --profile release-lto --quiet --bin urnreg --example gen_corpus --example peer_parse --example peer_urn_rs
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
measure urnrs "$work/corpus.txt" "$bin/examples/peer_urn_rs"
u="$bin/urnreg"
measure q1 "$work/corpus.txt" "$u" check -q --jobs 1 -
measure n1 "$work/corpus.txt" "$u" normalize --jobs 1 -
measure j1 "$work/corpus.txt" "$u" check --format jsonl --jobs 1 -
measure s1 "$work/corpus.txt" "$u" check --syntax-only -q --jobs 1 -
measure ns1 "$work/corpus.txt" "$u" normalize --syntax-only --jobs 1 -
measure jsonl "$work/corpus.txt" "$u" check --format jsonl -
measure quiet "$work/corpus.txt" "$u" check -q --summary -
measure syntax "$work/corpus.txt" "$u" check --syntax-only --format jsonl -
measure norm "$work/corpus.txt" "$u" normalize -

read -r peer_s peer_kb < "$work/result-urnrs"
printf '%-48s %8s %12s %9s %9s %8s\n' run seconds lines/s "x urn-rs" "max RSS" target
row() { # key label target
  read -r s kb < "$work/result-$1"
  awk -v n="$lines" -v s="$s" -v p="$peer_s" -v kb="$kb" -v label="$2" -v target="$3" 'BEGIN{
    printf "%-48s %8.3f %12.0f %8.2fx %6.1f MB %8s\n", label, s, (s>0?n/s:0), (s>0?p/s:0), kb/1024, target }'
}
row peer "urn crate, parse only (peer 1)" ""
row urnrs "urn-rs, valid<TAB>key (peer 2)" ""
echo "-- per core (--jobs 1)"
row q1 "urnreg check -q --jobs 1 -" ">= 1.2x"
row n1 "urnreg normalize --jobs 1 -" ">= 1.2x"
row j1 "urnreg check --format jsonl --jobs 1 -" ">= 0.8x"
row s1 "urnreg check --syntax-only -q --jobs 1 -" ""
row ns1 "urnreg normalize --syntax-only --jobs 1 -" ""
echo "-- default jobs ($(nproc) cores)"
row jsonl "urnreg check --format jsonl -" ">= 1.5x"
row quiet "urnreg check -q --summary -" ">= 1.5x"
row syntax "urnreg check --syntax-only --format jsonl -" ">= 1.5x"
row norm "urnreg normalize -" ">= 1.5x"

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
