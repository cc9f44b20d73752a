# Memory under hostile load (issue 11): bad logins, forged keys, mixed load. Sourced by
# bench/run.sh; appends its table to the notes of BENCHMARKS.md.
echo "memory under hostile load:" >&2
bench/hostile.sh target/x86_64-unknown-linux-gnu/release/gtms "${HOSTILE_WRK_SECS:-60}" >>"$BENCH_NOTES_FILE"
echo >>"$BENCH_NOTES_FILE"
