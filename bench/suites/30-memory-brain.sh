# Durable memory writes with 32 clients beside a raw redb one-write-per-commit loop, and
# Brain chat p50 with the demo model over a ~500-message history, in the same run.
cargo --config .cargo/static.toml build --release --quiet --example redb_commit_loop
code=$(target/x86_64-unknown-linux-gnu/release/gtms invites create --data "$work/bench.redb" --role admin --name bench | head -1)
GTMS_BENCH_TOKEN=$(curl -fsS -H 'Content-Type: application/json' -d "{\"inviteCode\":\"$code\"}" "http://127.0.0.1:$GTMS_PORT/auth/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
export GTMS_BENCH_TOKEN
echo "memory writes (32 clients) vs raw redb commit loop:" >&2
WRK_CONNECTIONS=32 measure "gtms POST /api/memory (32 clients, durable)" "http://127.0.0.1:$GTMS_PORT/api/memory" -s bench/memory_write.lua
raw=$(target/x86_64-unknown-linux-gnu/release/examples/redb_commit_loop "$work/raw.redb" 5)
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "raw redb: 1 write per commit (1 thread)" "-" "$raw" "-" "-" "-" >>"$RESULTS"
echo "  raw redb one write per commit: $raw writes/s" >&2
for i in $(seq 1 250); do
  curl -fsS -o /dev/null -H 'Content-Type: application/json' -H "Authorization: Bearer $GTMS_BENCH_TOKEN" \
    -d "{\"message\":\"warm-up question $i about pricing\"}" "http://127.0.0.1:$GTMS_PORT/api/brain/chat"
done
echo "brain chat (demo model, ~500-message history):" >&2
WRK_THREADS=1 WRK_CONNECTIONS=1 measure "gtms POST /api/brain/chat (demo, 500-msg history)" "http://127.0.0.1:$GTMS_PORT/api/brain/chat" -s bench/brain_chat.lua
{
  echo "### Memory and Brain"
  echo
  echo "- Durable memory writes: the row \"gtms POST /api/memory (32 clients, durable)\" (req/s = acknowledged durable writes/s; budget ≥ 2,000) beside \"raw redb: 1 write per commit\" (writes/s of a bare redb commit loop on the same disk)."
  echo "- Brain chat p50 with the demo model: the row \"gtms POST /api/brain/chat\" (one client; budget ≤ 5 ms)."
  echo
} >>"$BENCH_NOTES_FILE"
