# Demo engine: 5-step lead-qualification workflows completed per second (started through the
# API by 16 clients, every transition durable). Sourced by bench/run.sh after the memory suite
# (uses $GTMS_BENCH_TOKEN). The comparison with a local Temporal dev server comes with the
# temporal engine.
echo "demo engine workflows:" >&2
wf_rate=$(python3 bench/workflows.py "http://127.0.0.1:$GTMS_PORT" "$GTMS_BENCH_TOKEN" 1000 16)
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "demo engine: 5-step workflows completed/s (16 clients)" "-" "$wf_rate" "-" "-" "-" >>"$RESULTS"
echo "  demo engine: $wf_rate workflows/s" >&2
{
  echo "### Workflows"
  echo
  echo "- Demo engine: 1,000 lead-qualification workflows (5 steps: research, call analysis, score with the fast demo model, route, record to memory; 6 durable commits each) started by 16 clients through \`POST /api/workers/sdr/start\`: the row \"demo engine: 5-step workflows completed/s\" counts from the first start to the last completion."
  echo
} >>"$BENCH_NOTES_FILE"
