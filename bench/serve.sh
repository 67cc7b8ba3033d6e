#!/usr/bin/env bash
# Load benchmark of `urnreg serve` (issue 14, "Speed"), all on 127.0.0.1:
#
#   bash bench/serve.sh [SECONDS]      (default 10 per run)
#
# 1. GET /api/namespaces/isbn at 64 connections, against nginx serving the
#    same JSON (saved from the server) as a static file: requests/s, p99,
#    errors (wrk --latency).
# 2. GET /uri-res/N2Ls?urn:ietf:rfc:8141 (RFC 2169 resolution: the URN
#    checked, its key made and the templates expanded per request), against
#    nginx answering the same text/uri-list from its configuration.
# 3. POST /api/check with 1,000 URNs per request (the deterministic corpus
#    of bench/batch.sh), against `urnreg check --format jsonl` on the same
#    URNs: URNs/s.
# Needs wrk and nginx (Debian: apt-get install wrk nginx-light); the
# machine's cores are shared by client and servers, as on the 2-core
# development machine.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
for tool in wrk nginx; do
  command -v "$tool" >/dev/null || { echo "bench/serve.sh needs $tool (apt-get install wrk nginx-light)" >&2; exit 2; }
done
work=$(mktemp -d)
chmod 755 "$work"   # nginx workers read it as another user
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

cargo build --profile release-lto --quiet --bin urnreg --example gen_corpus
bin=target/release-lto
port_urnreg=18141
port_nginx=18142

# Every failure says so: a server that does not come up prints its own
# output and stops the run with exit 1 (it used to end silently).
trap 'echo "bench/serve.sh failed at line $LINENO (exit $?)" >&2' ERR
wait_for() { # url, name, log
  for _ in $(seq 100); do
    curl -sf "$1" > /dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "bench/serve.sh: $2 did not answer $1 within 10 s; its output:" >&2
  cat "$3" >&2 || true
  exit 1
}

"$bin/urnreg" serve --db "$work/registry.db" --quiet --bind "127.0.0.1:$port_urnreg" > "$work/serve.out" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$port_urnreg/api/namespaces/isbn" "urnreg serve" "$work/serve.out"

mkdir -p "$work/www/api/namespaces"
curl -sf "http://127.0.0.1:$port_urnreg/api/namespaces/isbn" > "$work/www/api/namespaces/isbn"
cat > "$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  default_type application/json;
  server {
    listen 127.0.0.1:$port_nginx;
    root $work/www;
    location = /uri-res/N2Ls {
      default_type text/uri-list;
      return 200 "https://www.rfc-editor.org/rfc/rfc8141\r\nhttps://datatracker.ietf.org/doc/rfc8141\r\n";
    }
  }
}
CONF
nginx -c "$work/nginx.conf" -g 'daemon off;' > "$work/nginx.out" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$port_nginx/api/namespaces/isbn" nginx "$work/nginx-error.log"
cmp <(curl -s "http://127.0.0.1:$port_nginx/api/namespaces/isbn") "$work/www/api/namespaces/isbn"
echo "GET /api/namespaces/isbn: $(wc -c < "$work/www/api/namespaces/isbn") bytes of JSON"

# wrk's summary: requests/s, p99 (ms), non-2xx and socket errors.
run_wrk() { # name, wrk args...
  local name=$1; shift
  wrk --latency "$@" > "$work/wrk.txt" 2>&1
  local rps p99 errors
  rps=$(awk '/^Requests\/sec/ {print $2}' "$work/wrk.txt")
  p99=$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v*=1000}; print v}' "$work/wrk.txt")
  errors=$(awk '/Non-2xx/ {n+=$NF} /Socket errors/ {gsub(/,/,""); n+=$4+$6+$8+$10} END {print n+0}' "$work/wrk.txt")
  printf '%-40s %10.0f req/s   p99 %7.2f ms   errors %s\n' "$name" "$rps" "$p99" "$errors"
  echo "$rps" > "$work/rps-$name"
}

echo "== GET /api/namespaces/isbn, 64 connections, 2 threads, ${secs}s"
run_wrk "nginx, static file" -t2 -c64 -d"${secs}s" "http://127.0.0.1:$port_nginx/api/namespaces/isbn"
run_wrk "urnreg serve" -t2 -c64 -d"${secs}s" "http://127.0.0.1:$port_urnreg/api/namespaces/isbn"
awk -v a="$(cat "$work/rps-urnreg serve")" -v b="$(cat "$work/rps-nginx, static file")" \
  'BEGIN{printf "urnreg / nginx: %.2f (target: at least 0.5)\n", a/b}'

echo "== GET /uri-res/N2Ls?urn:ietf:rfc:8141 (RFC 2169), 64 connections, 2 threads, ${secs}s"
cmp <(curl -s "http://127.0.0.1:$port_nginx/uri-res/N2Ls?urn:ietf:rfc:8141") \
    <(curl -s "http://127.0.0.1:$port_urnreg/uri-res/N2Ls?urn:ietf:rfc:8141")
run_wrk "nginx, configured answer" -t2 -c64 -d"${secs}s" "http://127.0.0.1:$port_nginx/uri-res/N2Ls?urn:ietf:rfc:8141"
run_wrk "urnreg serve, resolve" -t2 -c64 -d"${secs}s" "http://127.0.0.1:$port_urnreg/uri-res/N2Ls?urn:ietf:rfc:8141"
awk -v a="$(cat "$work/rps-urnreg serve, resolve")" -v b="$(cat "$work/rps-nginx, configured answer")" \
    -v c="$(cat "$work/rps-urnreg serve")" \
  'BEGIN{printf "resolve / nginx: %.2f; resolve / GET /api/namespaces/isbn: %.2f\n", a/b, a/c}'

echo "== the same GET during a slow-client flood (5,000 connections that never finish their headers)"
ulimit -n 16384 2>/dev/null || true
cat > "$work/flood.py" <<PY
import socket, sys, time
held = []
for i in range(5000):
    try:
        s = socket.create_connection(("127.0.0.1", $port_urnreg))
        s.sendall(b"GET /api/namespaces HTTP/1.1\\r\\nHost: x\\r\\nX-Slow: ")
        held.append(s)
    except OSError:
        pass
print(len(held), "flood connections opened", flush=True)
time.sleep(float(sys.argv[1]))
PY
python3 "$work/flood.py" "$((secs + 5))" > "$work/flood.out" 2>&1 &
flood=$!
pids+=($flood)
sleep 3
run_wrk "urnreg serve, during the flood" -t2 -c64 -d"${secs}s" "http://127.0.0.1:$port_urnreg/api/namespaces/isbn"
kill "$flood" 2>/dev/null || true
cat "$work/flood.out"
awk -v a="$(cat "$work/rps-urnreg serve, during the flood")" -v b="$(cat "$work/rps-urnreg serve")" \
  'BEGIN{printf "during the flood / without: %.2f (target: requests still succeed, no errors)\n", a/b}'

echo "== POST /api/check, 1000 URNs per request"
"$bin/examples/gen_corpus" 1000 > "$work/check-1000.txt"
cat > "$work/post.lua" <<LUA
local f = io.open("$work/check-1000.txt", "rb")
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
LUA
run_wrk "urnreg serve, POST check" -t2 -c8 -d"${secs}s" -s "$work/post.lua" "http://127.0.0.1:$port_urnreg/api/check"
served=$(awk -v r="$(cat "$work/rps-urnreg serve, POST check")" 'BEGIN{printf "%.0f", r*1000}')
"$bin/examples/gen_corpus" 1000000 > "$work/corpus.txt"
best=""
for _ in 1 2 3; do
  start=$(date +%s.%N)
  URNREG_DB="$work/registry.db" "$bin/urnreg" check --format jsonl - < "$work/corpus.txt" > /dev/null || true
  end=$(date +%s.%N)
  t=$(awk -v a="$start" -v b="$end" 'BEGIN{print b-a}')
  if [[ -z $best ]] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$t; fi
done
cli=$(awk -v s="$best" 'BEGIN{printf "%.0f", 1000000/s}')
printf '%-40s %10s URNs/s\n' "urnreg serve, POST /api/check" "$served"
printf '%-40s %10s URNs/s (1,000,000 lines, best of 3)\n' "urnreg check --format jsonl" "$cli"
awk -v a="$served" -v b="$cli" 'BEGIN{printf "serve / check: %.2f (target: at least 0.9)\n", a/b}'
