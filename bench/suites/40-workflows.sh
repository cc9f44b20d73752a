# 5-step lead-qualification workflows completed per second, started through the API by 16
# clients: the demo engine (every transition durable in redb), then the same workflow on the
# temporal engine against a local Temporal dev server (`temporal server start-dev`, SQLite,
# plain gRPC on loopback), each with its own appliance. Sourced by bench/run.sh after the memory
# suite (uses $GTMS_BENCH_TOKEN).
echo "workflows: demo engine vs temporal engine (local dev server):" >&2
wf_rate=$(python3 bench/workflows.py "http://127.0.0.1:$GTMS_PORT" "$GTMS_BENCH_TOKEN" 1000 16 0.05)
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "demo engine: 5-step workflows completed/s (16 clients)" "-" "$wf_rate" "-" "-" "-" >>"$RESULTS"
echo "  demo engine: $wf_rate workflows/s" >&2

temporal_rate=""
if command -v temporal >/dev/null; then
  TEMPORAL_PORT=3231 TEMPORAL_GTMS_PORT=3232
  temporal server start-dev --headless --ip 127.0.0.1 --port $TEMPORAL_PORT --http-port 3233 --metrics-port 3234 \
    --db-filename "$work/temporal.db" --log-level error >/dev/null 2>"$work/temporal.log" &
  pids+=($!)
  GTMS_LOG=warn GTMS_MODE=temporal GTMS_TEMPORAL_ADDRESS=127.0.0.1:$TEMPORAL_PORT GTMS_API_RATE_LIMIT=1000000000 \
    target/x86_64-unknown-linux-gnu/release/gtms serve --listen 127.0.0.1:$TEMPORAL_GTMS_PORT --data "$work/temporal-gtms.redb" \
    >/dev/null 2>"$work/temporal-gtms.log" &
  pids+=($!)
  wait_http "http://127.0.0.1:$TEMPORAL_GTMS_PORT/api/health"
  for _ in $(seq 1 400); do
    curl -fsS "http://127.0.0.1:$TEMPORAL_GTMS_PORT/api/health" | grep -q '"temporal":"connected"' && break
    sleep 0.05
  done
  tcode=$(target/x86_64-unknown-linux-gnu/release/gtms invites create --data "$work/temporal-gtms.redb" --role admin --name bench | head -1)
  ttoken=$(curl -fsS -H 'Content-Type: application/json' -d "{\"inviteCode\":\"$tcode\"}" "http://127.0.0.1:$TEMPORAL_GTMS_PORT/auth/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
  temporal_rate=$(python3 bench/workflows.py "http://127.0.0.1:$TEMPORAL_GTMS_PORT" "$ttoken" 200 16 0.25)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "temporal engine, local dev server: 5-step workflows completed/s (16 clients)" "-" "$temporal_rate" "-" "-" "-" >>"$RESULTS"
  echo "  temporal engine: $temporal_rate workflows/s" >&2
else
  echo "  temporal CLI missing (make deps installs it): temporal engine not measured" >&2
fi
{
  echo "### Workflows"
  echo
  echo "- Demo engine: 1,000 lead-qualification workflows (5 steps: research, call analysis, score with the fast demo model, route, record to memory; 6 durable commits each) started by 16 clients through \`POST /api/workers/sdr/start\`: the row \"demo engine: 5-step workflows completed/s\" counts from the first start to the last completion."
  if [ -n "$temporal_rate" ]; then
    echo "- Temporal engine: 200 of the same workflows on a second appliance in \`--mode temporal\` against \`temporal server start-dev\` (SQLite, loopback, no TLS) on the same machine; each workflow is 5 activities (3 on the compute queue, 2 on the appliance's) plus 7 transition local activities and the workflow tasks between them."
    echo "- Demo engine / temporal engine: $(python3 -c "print(f'{$wf_rate / $temporal_rate:.1f}')")× (DESIGN.md budget: ≥ 10×)."
  fi
  echo
} >>"$BENCH_NOTES_FILE"
