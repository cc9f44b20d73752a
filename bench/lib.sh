# Shared helpers for the benchmark scripts. Sourced by bench/run.sh.
# measure NAME URL [extra wrk args...]  -> appends one TSV row to $RESULTS:
#   name  url  req_per_sec  p50  p90  p99  (latencies as wrk prints them)
WRK_THREADS=${WRK_THREADS:-2}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-64}
WRK_DURATION=${WRK_DURATION:-10s}

measure() {
  local name=$1 url=$2; shift 2
  local out
  out=$(wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d"$WRK_DURATION" --latency "$@" "$url")
  local rps p50 p90 p99
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p90=$(awk '$1=="90%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  if grep -q "Non-2xx" <<<"$out"; then
    echo "bench: $name got non-2xx answers:" >&2; grep "Non-2xx" <<<"$out" >&2
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$url" "$rps" "$p50" "$p90" "$p99" >>"$RESULTS"
  echo "  $name: $rps req/s, p50 $p50, p99 $p99" >&2
}

wait_http() {
  local url=$1
  for _ in $(seq 1 200); do curl -fsS -o /dev/null "$url" 2>/dev/null && return 0; sleep 0.05; done
  echo "bench: $url did not come up" >&2; return 1
}
