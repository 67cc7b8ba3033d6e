#!/usr/bin/env bash
# `urnreg scan` against ripgrep, side by side in one run, on the same trees
# (page cache warm, best of 5 wall-clock runs, peak memory from GNU time):
#
#   bash bench/scan.sh [FILES]      (default 20000 generated files)
#
# Trees: (1) real text: the shipped registry (registry/), the registration
# texts and specifications of ../shared if present; (2) a generated tree of
# many small files (XML, JSON, Markdown, code) with URNs embedded, a tenth
# of them invalid; (3) one file of 256 MB on a single line, for memory.
# The peer is `rg -i 'urn:'` (a case-insensitive literal, every core),
# which finds the lines; urnreg also cuts, decodes and checks every URN.
# Goal (issue 23): urnreg at least half of ripgrep's speed.
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v rg >/dev/null || { echo "bench/scan.sh needs ripgrep (apt-get install ripgrep)" >&2; exit 2; }

cargo build --profile release-lto --quiet --bin urnreg
u=target/release-lto/urnreg
export URNREG_DB="$work/none.db"   # the embedded registry

mkdir -p "$work/real"
cp -r registry "$work/real/"
[[ -d ../shared ]] && cp -r ../shared/spec ../shared/data "$work/real/" 2>/dev/null || true

python3 - "$work/gen" "$files" <<'PY'
import os, random, sys
root, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(8141)
good = ["urn:isbn:0451450523", "urn:issn:0167-6423", "urn:ietf:rfc:8141",
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "urn:nbn:de:bvb:19-146642",
        "urn:epc:id:sgtin:0614141.112345.400", "urn:oid:1.3.6.1.4.1", "urn:mpeg:mpeg7:schema:2001",
        "urn:ogc:def:crs:EPSG::4326", "urn:oasis:names:tc:SAML:2.0:assertion"]
bad = ["urn:isbn:0451450524", "urn:isnb:0451450523", "urn:issn:0167-6420", "urn:ietf:rfc:08141"]
words = "the a of registry namespace identifier resolution persistent name item record value".split()
for i in range(n):
    d = os.path.join(root, f"d{i % 97}", f"e{i % 13}")
    os.makedirs(d, exist_ok=True)
    kind = i % 4
    urns = [rnd.choice(bad if rnd.random() < 0.1 else good) for _ in range(rnd.randint(1, 6))]
    prose = lambda: " ".join(rnd.choice(words) for _ in range(rnd.randint(20, 60)))
    if kind == 0:
        body = "<?xml version=\"1.0\"?>\n<items>\n" + "".join(f"  <item id=\"{u}\">{prose()}</item>\n" for u in urns) + "</items>\n"
        ext = "xml"
    elif kind == 1:
        body = "{\"items\": [" + ", ".join(f"{{\"id\": \"{u}\", \"note\": \"{prose()}\"}}" for u in urns) + "]}\n"
        ext = "json"
    elif kind == 2:
        body = "".join(f"{prose()} See <{u}>.\n\n" for u in urns)
        ext = "md"
    else:
        body = "".join(f"// {prose()}\nconst ID_{j} = \"{u}\";\n" for j, u in enumerate(urns))
        ext = "js"
    with open(os.path.join(d, f"f{i}.{ext}"), "w") as f:
        f.write(body)
PY
# One line of 256 MB: prose with a URN every 4 KB.
python3 - "$work/big/one-line.txt" <<'PY'
import os, sys
os.makedirs(os.path.dirname(sys.argv[1]), exist_ok=True)
block = ("word " * 800 + "urn:isbn:0451450523 ").encode()
with open(sys.argv[1], "wb") as f:
    for _ in range((256 << 20) // len(block)):
        f.write(block)
PY
echo "trees: real $(du -sh "$work/real" | cut -f1), generated $files files $(du -sh "$work/gen" | cut -f1), one line $(du -sh "$work/big" | cut -f1); $(nproc) cores"

measure() { # NAME COMMAND...: best wall time of 5 and its peak RSS
  local name=$1; shift
  local best="" rss="" start end ns
  for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$work/time" "$@" > /dev/null 2>"$work/err" || true
    end=$(date +%s%N)
    ns=$((end - start))
    if [[ -z $best ]] || (( ns < best )); then best=$ns; rss=$(tail -n 1 "$work/time"); fi
  done
  echo "$best $rss" > "$work/result-$name"
}

printf '%-44s %9s %9s %10s\n' run seconds "x rg" "max RSS"
for tree in real gen big; do
  dir="$work/$tree"
  measure "rg-$tree" rg -i 'urn:' "$dir"
  measure "scan-$tree" "$u" scan "$dir"
  measure "all-$tree" "$u" scan --all --format jsonl "$dir"
  read -r peer peer_kb < "$work/result-rg-$tree"
  for run in rg scan all; do
    read -r ns kb < "$work/result-$run-$tree"
    case $run in
      rg) label="rg -i 'urn:' ($tree)" ;;
      scan) label="urnreg scan ($tree)" ;;
      all) label="urnreg scan --all --format jsonl ($tree)" ;;
    esac
    awk -v l="$label" -v ns="$ns" -v p="$peer" -v kb="$kb" \
      'BEGIN{ printf "%-44s %9.3f %8.2fx %8.1f MB\n", l, ns / 1e9, p / ns, kb / 1024 }'
  done
done
