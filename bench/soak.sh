#!/usr/bin/env bash
# `make soak`: SOAK_SECS (default 600) of mixed load against the release binary — keyless
# company files, /v1/enrich with a key, workspace API reads and writes (memory, deals, workers),
# MCP tool calls, Brain chat with the demo model — five wrk processes at once, each connection
# pacing itself (SOAK_DELAY_MS per kind). RSS is sampled every SOAK_SAMPLE_SECS. Writes the
# figures into BENCHMARKS.md between <!-- soak:begin --> and <!-- soak:end --> and fails when
# any request failed or RSS grew 10 % or more after the warm-up (SOAK_WARMUP_SECS, default 60).
# SOAK_LOADS (e.g. "api chat") runs only those loads; SOAK_REPORT names the file the section goes
# into (default BENCHMARKS.md), so a partial run can be looked at without touching the record.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in wrk curl python3; do
  command -v $tool >/dev/null || { apt-get update -qq >/dev/null; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk curl python3 >/dev/null; }
done
SOAK_SECS=${SOAK_SECS:-600}
SOAK_SAMPLE_SECS=${SOAK_SAMPLE_SECS:-5}
SOAK_WARMUP_SECS=${SOAK_WARMUP_SECS:-$((SOAK_SECS < 300 ? SOAK_SECS / 5 : 60))}
SOAK_PORT=${SOAK_PORT:-3221}
SOAK_LOADS=${SOAK_LOADS:-files enrich api mcp chat}
SOAK_REPORT=${SOAK_REPORT:-BENCHMARKS.md}
bin=target/x86_64-unknown-linux-gnu/release/gtms

cargo --config .cargo/static.toml build --release --quiet --bin gtms
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
source bench/lib.sh

base="http://127.0.0.1:$SOAK_PORT"
GTMS_LOG=warn GTMS_ENRICH_RATE_LIMIT=1000000000 GTMS_API_RATE_LIMIT=1000000000 GTMS_MCP_RATE_LIMIT=1000000000 \
  "$bin" serve --listen 127.0.0.1:$SOAK_PORT --data "$work/soak.redb" >/dev/null 2>"$work/gtms.log" &
gtms_pid=$!
pids+=("$gtms_pid")
wait_http "$base/api/health"

key=$("$bin" keys create --data "$work/soak.redb" --tenant soak --name soak | awk 'NR==1 {print $1}')
code=$("$bin" invites create --data "$work/soak.redb" --role admin --name soak | awk 'NR==1 {print $1}')
token=$(curl -fsS -H 'Content-Type: application/json' -d "{\"inviteCode\":\"$code\"}" "$base/auth/login" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')

# One MCP session for every MCP connection (as an agent holding one session would).
mcp_post() {
  curl -fsS -D "$work/mcp-headers" -o "$work/mcp-body" "$base/mcp" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' "$@"
}
mcp_post -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"soak","version":"1"}}}'
session=$(awk -F': ' 'tolower($1)=="mcp-session-id" {print $2}' "$work/mcp-headers" | tr -d '\r')
mcp_post -H "Mcp-Session-Id: $session" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'

# The memory keys the api load reads and overwrites exist before it starts (soak-<thread>-<n>).
for t in 0 1 2 3; do
  for i in $(seq 0 49); do
    curl -fsS -o /dev/null -H 'Content-Type: application/json' -H "Authorization: Bearer $token" \
      -d "{\"scope\":\"org\",\"key\":\"soak-$t-$i\",\"value\":\"soak seed\"}" "$base/api/memory"
  done
done

# The tables the script picks from: card slugs, tickers with a card, open deals.
python3 - "$base" "$token" >"$work/soak.lua" <<'PY'
import json, sys, urllib.request
base, token = sys.argv[1], sys.argv[2]
def get(path, auth=False):
    req = urllib.request.Request(base + path)
    if auth:
        req.add_header("authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r:
        return json.load(r)
slugs = [c["slug"] for c in get("/company/data/index.json")["companies"]][:400]
tickers = sorted(get("/company/_slugmap.json"))[:400]
deals = [d["id"] for d in get("/api/deals", True)["deals"] if not d["stage"].startswith("closed")]
for name, values in (("slugs", slugs), ("tickers", tickers), ("deals", deals)):
    print(name + " = {" + ",".join(json.dumps(v) for v in values) + "}")
PY
cat bench/soak.lua >>"$work/soak.lua"

# kind  threads  connections  delay-ms
loads="files 1 8 2
enrich 1 8 2
api 1 4 5
mcp 1 2 5
chat 1 1 20"
echo "soak: ${SOAK_SECS}s of mixed load on $base (pid $gtms_pid), warm-up ${SOAK_WARMUP_SECS}s" >&2
started=$(date +%s)
wrk_pids=()
: >"$work/loads.tsv"
while read -r kind threads conns delay; do
  [[ " $SOAK_LOADS " == *" $kind "* ]] || continue
  printf '%s\t%s\t%s\n' "$kind" "$conns" "${SOAK_DELAY_MS:-$delay}" >>"$work/loads.tsv"
  SOAK_KIND=$kind SOAK_TOKEN=$token SOAK_KEY=$key SOAK_MCP_SESSION=$session \
    SOAK_DELAY_MS=${SOAK_DELAY_MS:-$delay} \
    wrk -t"$threads" -c"$conns" -d"${SOAK_SECS}s" --timeout 10s --latency -s "$work/soak.lua" "$base" \
    >"$work/wrk-$kind.txt" 2>&1 &
  wrk_pids+=($!)
  pids+=($!)
done <<<"$loads"

: >"$work/rss.tsv"
while kill -0 "${wrk_pids[0]}" 2>/dev/null; do
  now=$(($(date +%s) - started))
  printf '%s\t%s\n' "$now" "$(awk '/^VmRSS:/ {print $2}' /proc/$gtms_pid/status)" >>"$work/rss.tsv"
  if ((now % 60 < SOAK_SAMPLE_SECS)); then echo "  ${now}s: RSS $(tail -1 "$work/rss.tsv" | cut -f2) KiB" >&2; fi
  sleep "$SOAK_SAMPLE_SECS"
done
for p in "${wrk_pids[@]}"; do wait "$p"; done
health=$(curl -s -o /dev/null -w '%{http_code}' "$base/api/health")
idle_rss=$(awk '/^VmRSS:/ {print $2}' /proc/$gtms_pid/status)
log_errors=$(grep -c ' ERROR ' "$work/gtms.log" || true)

status=0
python3 bench/soak_report.py "$work" "$SOAK_SECS" "$SOAK_WARMUP_SECS" "$health" "$idle_rss" "$log_errors" \
  "$("$bin" --version)" "$SOAK_REPORT" || status=$?
exit $status
