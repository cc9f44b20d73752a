#!/usr/bin/env bash
# `make bench`: wrk against the release binary, side by side with yardsticks, in one run.
# Writes BENCHMARKS.md. Timings are measured here, never asserted in tests.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in wrk nginx bc; do
  command -v $tool >/dev/null || { apt-get update -qq >/dev/null; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light libnginx-mod-http-brotli-static bc >/dev/null; }
done

# The binary alone, as `make dist` builds it: built in one invocation with an example, it takes
# the dev-dependencies' features too (0.7 MB larger than what ships, issue 27).
cargo --config .cargo/static.toml build --release --quiet --bin gtms
cargo --config .cargo/static.toml build --release --quiet --example hello
work=$(mktemp -d)
RESULTS=$work/results.tsv
BENCH_NOTES_FILE=$work/notes.md
export RESULTS BENCH_NOTES_FILE
: >"$BENCH_NOTES_FILE"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
source bench/lib.sh

GTMS_PORT=3201 HELLO_PORT=3202
# Start-up (issue 27): exec to the first 200, and the idle RSS, on a fresh and an existing file.
{
  echo "### Start-up"
  echo
  echo "| data file | to the first 200 (median of 5) | min | max | idle RSS |"
  echo "|---|---:|---:|---:|---:|"
  python3 bench/start_time.py target/x86_64-unknown-linux-gnu/release/gtms 3209 "$work" |
    awk -F'\t' '{printf "| %s | %s ms | %s ms | %s ms | %.1f MiB |\n", $1, $2, $3, $4, $5 / 1024}'
  echo
  echo "Budget: ≤ 50 ms to the first 200, idle RSS ≤ 30 MB (\`bench/start_time.py\`)."
  echo
} >>"$BENCH_NOTES_FILE"
GTMS_LOG=warn GTMS_ENRICH_RATE_LIMIT=1000000000 GTMS_API_RATE_LIMIT=1000000000 target/x86_64-unknown-linux-gnu/release/gtms serve --listen 127.0.0.1:$GTMS_PORT --data "$work/bench.redb" >/dev/null 2>"$work/gtms.log" &
pids+=($!)
target/x86_64-unknown-linux-gnu/release/examples/hello 127.0.0.1:$HELLO_PORT >/dev/null &
pids+=($!)
wait_http "http://127.0.0.1:$GTMS_PORT/api/health"
wait_http "http://127.0.0.1:$HELLO_PORT/"
gtms_pid=${pids[0]}
# Idle: once the RSS holds still (the fresh file's seeding hashes the admin's invite at start).
idle_rss_kb=$(python3 -c "import sys; sys.path.insert(0, 'bench'); from start_time import settled_rss_kib; print(settled_rss_kib($gtms_pid))")

echo "health vs hyper hello:" >&2
measure "gtms /api/health" "http://127.0.0.1:$GTMS_PORT/api/health"
measure "hyper hello (ceiling)" "http://127.0.0.1:$HELLO_PORT/"

for script in bench/suites/*.sh; do
  [ -e "$script" ] || continue
  # shellcheck source=/dev/null
  source "$script"
done

# The soak section (`make soak`) of the previous BENCHMARKS.md is kept.
cp BENCHMARKS.md "$work/previous.md" 2>/dev/null || true
python3 bench/report.py "$RESULTS" "$idle_rss_kb" "target/x86_64-unknown-linux-gnu/release/gtms" "$work/previous.md" >BENCHMARKS.md
echo "wrote BENCHMARKS.md" >&2
