# Keyless company files: gtms vs nginx serving `gtms export-static` output (gzip_static), in one run.
# Sourced by bench/run.sh (uses measure, wait_http, $work, $pids, $GTMS_PORT).
NGINX_PORT=3203
target/x86_64-unknown-linux-gnu/release/gtms export-static "$work/www" >/dev/null
mkdir -p "$work/nginx"
sed -e "s|@ROOT@|$work/www|; s|@RUNDIR@|$work/nginx|; s|@PORT@|$NGINX_PORT|; s|@WORKERS@|2|" \
  tests/support/nginx.conf.in >"$work/nginx/nginx.conf"
nginx -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" >/dev/null 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$NGINX_PORT/company/data/index.json"

card_slug=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["companies"][0]["slug"])' "$work/www/company/data/index.json")
echo "company files vs nginx (gzip):" >&2
for path in "/company/data/$card_slug.json" "/company/data/index.json"; do
  name=$(basename "$path")
  [ "$name" = "index.json" ] || name="{slug}.json"
  measure "gtms $name (gzip)" "http://127.0.0.1:$GTMS_PORT$path" -H "Accept-Encoding: gzip"
  measure "nginx $name (gzip)" "http://127.0.0.1:$NGINX_PORT$path" -H "Accept-Encoding: gzip"
done

# One-off figures for the notes: ingest time and the size of what is embedded.
ingest_start=$(date +%s.%N)
target/x86_64-unknown-linux-gnu/release/gtms ingest --seed seed --out "$work/ingest-check" >"$work/ingest.txt"
ingest_secs=$(echo "$(date +%s.%N) - $ingest_start" | bc)
{
  echo "### Company data"
  echo
  echo "- \`gtms ingest\` (release): ${ingest_secs%??????} s — $(cat "$work/ingest.txt" | sed 's/^ingest: //')"
  echo "- Embedded keyless files: $(find assets/company/public -name '*.br' -print0 | du -ch --apparent-size --files0-from=- | tail -1 | cut -f1) (.br only; gzip and identity made from it on a file's first request for them, and kept)"
  echo
} >>"$BENCH_NOTES_FILE"
