# /v1/enrich with a valid key across many tickers, beside the static card route, in one run;
# then p99 of enrich at half its peak rate (wrk throttled with a per-connection delay).
key=$(target/x86_64-unknown-linux-gnu/release/gtms keys create --data "$work/bench.redb" --tenant bench --name bench | head -1)
# Every ticker whose card has a signal (a card with only executives or a family answers 404
# `no_signal`, which is not what this measures).
python3 - "$work/www/company" >"$work/tickers.lua" <<'PY'
import json, os, sys
root = sys.argv[1]
slugs = json.load(open(os.path.join(root, "_slugmap.json")))
def signals(slug):
    with open(os.path.join(root, "data", slug + ".json")) as f:
        return len(json.load(f)["why_now"])
tickers = sorted(t for t, slug in slugs.items() if signals(slug))
print("tickers = {" + ",".join('"%s"' % t for t in tickers) + "}")
PY
cat "$work/tickers.lua" bench/enrich.lua >"$work/enrich.lua"
# Warm-up: the first request verifies the key with argon2 and caches it; measure steady state.
first_ticker=$(sed -E 's/^tickers = \{"([^"]+)".*/\1/' "$work/tickers.lua")
curl -fsS -o /dev/null -H "Authorization: Bearer $key" "http://127.0.0.1:$GTMS_PORT/v1/enrich?ticker=$first_ticker"
echo "enrich vs static card:" >&2
measure "gtms /v1/enrich (many tickers)" "http://127.0.0.1:$GTMS_PORT/v1/enrich" -s "$work/enrich.lua" -H "Authorization: Bearer $key"
measure "gtms {slug}.json (identity)" "http://127.0.0.1:$GTMS_PORT/company/data/$card_slug.json"

peak=$(awk -F'\t' '$1=="gtms /v1/enrich (many tickers)" {print $3}' "$RESULTS")
half=$(python3 -c "print(int(float('$peak') / 2))")
delay_ms=$(python3 -c "print(max(1, round($WRK_CONNECTIONS * 1000 / max(1, $half))))")
export ENRICH_DELAY_MS=$delay_ms
measure "gtms /v1/enrich at ~half peak" "http://127.0.0.1:$GTMS_PORT/v1/enrich" -s "$work/enrich.lua" -H "Authorization: Bearer $key"
achieved=$(awk -F'\t' '$1=="gtms /v1/enrich at ~half peak" {print $3}' "$RESULTS")
{
  echo "### Enrichment at half load"
  echo
  echo "- Peak ${peak%.*} req/s; throttled run: $WRK_CONNECTIONS connections each waiting ${delay_ms} ms between requests, achieved ${achieved%.*} req/s (target: half of peak, ${half})."
  echo "- Its p99 is in the table row \"gtms /v1/enrich at ~half peak\" (target ≤ 2 ms)."
  echo
} >>"$BENCH_NOTES_FILE"
