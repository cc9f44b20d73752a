#!/usr/bin/env bash
# Hostile-load memory report for one gtms binary (default: the release build):
#   bench/hostile.sh [BINARY] [WRK_SECONDS]   -> Markdown on stdout
# Starts the binary on a fresh data file with the default argon2 cost, trusting 127.0.0.1 as
# a proxy so 30 client addresses can be simulated with X-Forwarded-For.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/x86_64-unknown-linux-gnu/release/gtms}
secs=${2:-60}
port=${HOSTILE_PORT:-3211}
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
key=$("$bin" keys create --tenant bench --data "$work/h.redb" | awk '{print $1; exit}')
GTMS_LOG=warn GTMS_TRUSTED_PROXIES=127.0.0.1 GTMS_ENRICH_RATE_LIMIT=1000000000 \
  "$bin" serve --listen 127.0.0.1:$port --data "$work/h.redb" >/dev/null 2>"$work/log" &
pid=$!
for _ in $(seq 1 200); do curl -fsS -o /dev/null "http://127.0.0.1:$port/api/health" 2>/dev/null && break; sleep 0.05; done
echo "### Memory under hostile load ($("$bin" --version 2>/dev/null || echo "$bin"))"
echo
python3 bench/hostile.py "http://127.0.0.1:$port" "$pid" "$key" "$secs"
