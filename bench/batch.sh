#!/usr/bin/env bash
# End-to-end batch validation benchmark (issue: validator speed and memory).
#
#   bash bench/batch.sh [LINES]      (default 1000000)
#
# Generates a deterministic corpus, then times
#   urnreg check --format jsonl - < corpus > /dev/null
# (single-threaded and with --jobs 2) against a parse-only loop of the
# crates.io `urn` crate over the same corpus, and reports lines per second,
# the ratio, and peak memory (max RSS, from GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet --bin urnreg --example gen_corpus --example peer_parse
bin=target/release
"$bin/examples/gen_corpus" "$lines" > "$work/corpus.txt"
echo "corpus: $lines lines, $(wc -c < "$work/corpus.txt") bytes"
export URNREG_DB="$work/none.db"   # no database: the embedded registry

measure() { # name, command...
  local name=$1; shift
  local best=""
  local rss=""
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" < "$work/corpus.txt" > /dev/null || true
    read -r secs kb < <(tail -n 1 "$work/time")
    if [[ -z $best ]] || awk -v a="$secs" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$secs; rss=$kb; fi
  done
  local rate
  rate=$(awk -v n="$lines" -v s="$best" 'BEGIN{printf "%.0f", (s>0? n/s : 0)}')
  printf '%-34s %8.3f s  %10s lines/s  %7.1f MB max RSS\n' "$name" "$best" "$rate" "$(awk -v k="$rss" 'BEGIN{print k/1024}')"
  echo "$rate" > "$work/rate-$name"
}

measure "urn crate, parse only" "$bin/examples/peer_parse"
measure "urnreg check --syntax-only" "$bin/urnreg" check --syntax-only --format jsonl -
measure "urnreg check" "$bin/urnreg" check --format jsonl -
measure "urnreg check --jobs 2" "$bin/urnreg" check --format jsonl --jobs 2 -

peer=$(cat "$work/rate-urn crate, parse only")
for name in "urnreg check" "urnreg check --jobs 2"; do
  awk -v a="$(cat "$work/rate-$name")" -v b="$peer" -v n="$name" 'BEGIN{printf "%s / urn crate parse-only: %.2fx\n", n, a/b}'
done
