#!/usr/bin/env bash
# End-to-end batch benchmark, side by side in one run against two peers
# built from the package registry: the crates.io `urn` crate's parse-only
# loop, and `urn-rs` (a SWAR fork of it, the fastest Rust peer we know),
# single-threaded, writing `valid<TAB>key` per line (examples/peer_*.rs).
#
#   bash bench/batch.sh [LINES]      (default 1000000)
#
# Generates a deterministic corpus (examples/gen_corpus.rs), then times each
# run in 5 rounds, each round running every command once in turn (wall
# clock; peak memory from GNU time), and prints its best time and its
# throughput as a multiple of urn-rs's (the median of the rounds' ratios,
# each taken within one round): per core (--jobs 1) and at the
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

# once NAME INPUT COMMAND...: one timed run, read with a nanosecond clock
# (GNU time's own is in hundredths of a second, too coarse for runs of a
# tenth of a second); NAME keeps its best wall time and that run's peak RSS.
once() {
  local name=$1 input=$2; shift 2
  local start end ns best=""
  [[ -f $work/best-$name ]] && read -r best _ < "$work/best-$name"
  start=$(date +%s%N)
  /usr/bin/time -f "%M" -o "$work/time" "$@" < "$input" > /dev/null 2>"$work/err" || true
  end=$(date +%s%N)
  ns=$((end - start))
  echo "$ns" >> "$work/times-$name"
  if [[ -z $best ]] || (( ns < best )); then echo "$ns $(tail -n 1 "$work/time")" > "$work/best-$name"; fi
}

# result NAME: NAME's best run as "seconds peak-KB", then the median over
# the rounds of urn-rs's time in a round over NAME's in the same round (the
# pairs of one round ran seconds apart: the ratio the drift moves least).
result() {
  local ns kb ratio
  read -r ns kb < "$work/best-$1"
  ratio=$(paste "$work/times-urnrs" "$work/times-$1" 2>/dev/null \
    | awk 'NF == 2 && $2 > 0 { print $1 / $2 }' | sort -g \
    | awk '{ r[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print r[(NR + 1) / 2]; else print (r[NR / 2] + r[NR / 2 + 1]) / 2 }')
  awk -v ns="$ns" -v kb="$kb" -v r="$ratio" 'BEGIN{ printf "%.4f %s %s\n", ns / 1e9, kb, r }' > "$work/result-$1"
}

# measure NAME INPUT COMMAND...: the best of 5 runs of one command.
measure() {
  for _ in 1 2 3 4 5; do once "$@"; done
  result "$1"
}

# The runs of the table, by name.
u="$bin/urnreg"
cmd_peer=("$bin/examples/peer_parse")
cmd_urnrs=("$bin/examples/peer_urn_rs")
cmd_q1=("$u" check -q --jobs 1 -)
cmd_n1=("$u" normalize --jobs 1 -)
cmd_j1=("$u" check --format jsonl --jobs 1 -)
cmd_s1=("$u" check --syntax-only -q --jobs 1 -)
cmd_ns1=("$u" normalize --syntax-only --jobs 1 -)
cmd_jsonl=("$u" check --format jsonl -)
cmd_quiet=("$u" check -q --summary -)
cmd_syntax=("$u" check --syntax-only --format jsonl -)
cmd_norm=("$u" normalize -)

# Five rounds, each running every command once, in turn: a drift of the
# machine's speed during the benchmark (a shared machine's moves by tens
# of percent within a minute) then reaches the peers and urnreg alike, and
# the ratios stay side by side. Each keeps its best round.
names=(peer urnrs q1 n1 j1 s1 ns1 jsonl quiet syntax norm)
for _ in 1 2 3 4 5; do
  for name in "${names[@]}"; do
    declare -n command="cmd_$name"
    once "$name" "$work/corpus.txt" "${command[@]}"
    unset -n command
  done
done
for name in "${names[@]}"; do result "$name"; done

printf '%-48s %8s %12s %9s %9s %8s\n' run seconds lines/s "x urn-rs" "max RSS" target
row() { # key label target
  read -r s kb ratio < "$work/result-$1"
  awk -v n="$lines" -v s="$s" -v r="$ratio" -v kb="$kb" -v label="$2" -v target="$3" 'BEGIN{
    printf "%-48s %8.3f %12.0f %8.2fx %6.1f MB %8s\n", label, s, (s>0?n/s:0), r, kb/1024, target }'
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
read -r s kb _ < "$work/result-long"
awk -v s="$s" -v kb="$kb" 'BEGIN{ printf "300 lines of 1 MB, check --format jsonl: %.2f s, %.1f MB max RSS\n", s, kb/1024 }'
