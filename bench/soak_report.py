"""Turns one `make soak` run (bench/soak.sh) into the soak section of BENCHMARKS.md.

Usage: soak_report.py WORK_DIR SOAK_SECS WARMUP_SECS HEALTH IDLE_RSS_KIB LOG_ERRORS VERSION BENCHMARKS_MD
WORK_DIR holds wrk-<kind>.txt (wrk's output plus the script's `soak-errors` line), loads.tsv
(kind, connections, pacing) and rss.tsv (seconds, KiB). The section replaces the one between
the markers in BENCHMARKS_MD (or is appended). Exits 1 when a request failed, the server's
health check did not answer 200, or RSS grew 10 % or more after the warm-up.
"""
import os
import re
import subprocess
import sys
from datetime import datetime, timezone

from report import machine_line

BEGIN, END = "<!-- soak:begin -->", "<!-- soak:end -->"
GROWTH_BUDGET = 10.0


def parse_wrk(text):
    num = lambda pattern: int(m.group(1)) if (m := re.search(pattern, text)) else 0
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    lat = lambda pct: m.group(1) if (m := re.search(rf"^\s+{pct}%\s+(\S+)", text, re.M)) else "-"
    script = re.search(r"^soak-errors \S+ (\d+) ?(.*)$", text, re.M)
    rps = re.search(r"^Requests/sec:\s+(\S+)", text, re.M)
    return {
        "requests": num(r"(\d+) requests in"),
        "rps": float(rps.group(1)) if rps else 0.0,
        "socket": sum(int(g) for g in socket.groups()) if socket else 0,
        "non2xx": num(r"Non-2xx or 3xx responses: (\d+)"),
        "script_errors": int(script.group(1)) if script else None,
        "sample": script.group(2).strip() if script else "",
        "p50": lat(50),
        "p99": lat(99),
    }


def rss_figures(samples, warmup):
    after = [kib for t, kib in samples if t >= warmup] or [kib for _, kib in samples]
    warm, end = after[0], after[-1]
    return warm, end, max(kib for _, kib in samples), (end - warm) * 100.0 / warm


def section(args, loads, results, samples):
    work, secs, warmup, health, idle_kib, log_errors, version = args
    warm, end, peak, growth = rss_figures(samples, int(warmup))
    total = sum(r["requests"] for r in results.values())
    errors = sum(r["errors"] for r in results.values())
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    mib = lambda kib: f"{kib / 1024:.1f} MiB"
    minutes = []
    for m in range(0, samples[-1][0] // 60 + 1):
        first = next(((t, k) for t, k in samples if t >= 60 * m), None)
        if first:
            minutes.append(f"{m} min {mib(first[1])}")
    out = [BEGIN, "## Soak", ""]
    out.append(f"One `make soak` run (`bench/soak.sh`): {int(secs)} s of mixed load, {len(loads)} wrk processes at once, against the release binary ({version}).")
    out.append("")
    out.append(f"- Machine: {machine_line()}; load generator and server on the same machine")
    out.append(f"- Date: {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}, commit {rev or 'uncommitted'}")
    out.append(f"- **Errors: {errors}** in {total:,} requests (non-2xx answers, MCP results with `isError` or a JSON-RPC error, socket errors); health after the run {health}; ERROR lines in the server log: {log_errors}")
    out.append(f"- **RSS: {mib(warm)} after the {warmup} s warm-up, {mib(end)} at the end: {growth:+.1f} %** (budget < {GROWTH_BUDGET:.0f} %); peak {mib(peak)}; {mib(int(idle_kib))} once the load stopped")
    out.append("")
    out.append("| load | connections | pacing | requests | req/s | p50 | p99 | errors |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind, conns, delay in loads:
        r = results[kind]
        out.append(f"| {kind} | {conns} | {delay} ms | {r['requests']:,} | {r['rps']:,.0f} | {r['p50']} | {r['p99']} | {r['errors']} |")
    out.append("")
    out.append("Loads: `files` = company cards, the index, the slug map and the search index without a key; `enrich` = `/v1/enrich` by ticker with an API key; `api` = memory tree, search, reads and writes (50 keys per wrk thread, overwritten), deal list, reads and `PATCH`es, workers, with an admin token; `mcp` = `tools/call` of `company_get`, `memory_search`, `deals_list`, `workers_list` and `pipeline_summary` on one session; `chat` = Brain chat with the demo model. Pacing: each connection waits that long between requests.")
    out.append("")
    if minutes:
        out.append("RSS each minute: " + ", ".join(minutes) + ".")
        out.append("")
    samples_bad = [f"{k}: {r['sample']}" for k, r in results.items() if r["sample"]]
    if samples_bad:
        out.append("First failed answer per load: " + "; ".join(samples_bad))
        out.append("")
    out.append(END)
    return "\n".join(out), errors, growth


def splice(path, text):
    old = open(path).read() if os.path.exists(path) else ""
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = head + text + rest.split(END, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + text + "\n"
    with open(path, "w") as f:
        f.write(new)


def main():
    work, secs, warmup, health, idle_kib, log_errors, version, bench_md = sys.argv[1:9]
    loads = [line.split("\t") for line in open(os.path.join(work, "loads.tsv")).read().splitlines() if line]
    results = {}
    for kind, _, _ in loads:
        r = parse_wrk(open(os.path.join(work, f"wrk-{kind}.txt")).read())
        script = r["script_errors"] if r["script_errors"] is not None else r["non2xx"]
        r["errors"] = script + r["socket"]
        results[kind] = r
    samples = [tuple(int(x) for x in line.split("\t")) for line in open(os.path.join(work, "rss.tsv")) if line.strip()]
    text, errors, growth = section((work, secs, warmup, health, idle_kib, log_errors, version), loads, results, samples)
    splice(bench_md, text)
    print(text)
    print(f"wrote the soak section of {bench_md}", file=sys.stderr)
    failed = []
    if errors:
        failed.append(f"{errors} failed requests")
    if health != "200":
        failed.append(f"health answered {health}")
    if growth >= GROWTH_BUDGET:
        failed.append(f"RSS grew {growth:.1f} % after the warm-up (budget < {GROWTH_BUDGET:.0f} %)")
    if failed:
        print("soak: FAILED: " + "; ".join(failed), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
