"""Turns the TSV rows of one `make bench` run into BENCHMARKS.md.

Rows come in pairs or groups; a ratio is reported for every row against the row named in
RATIOS (subject -> yardstick), so each figure is compared with a yardstick of the same run.
An optional fourth argument names the previous BENCHMARKS.md: its scale and soak sections
(written by `make bench-scale` and `make soak`, between their markers) are kept.
"""
import os
import platform
import subprocess
import sys
from datetime import datetime, timezone

RATIOS = {
    "gtms /api/health": "hyper hello (ceiling)",
    "gtms {slug}.json (gzip)": "nginx {slug}.json (gzip)",
    "gtms index.json (gzip)": "nginx index.json (gzip)",
    "gtms /v1/enrich (many tickers)": "gtms {slug}.json (identity)",
    "gtms MCP tools/call company_get (8 sessions)": "gtms card /company/data/apple.json",
}


def machine_line():
    cpu = "unknown cpu"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = f", {kb / 1024 / 1024:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu}){mem}"


def kept_section(previous, name):
    """The section another target wrote into the previous BENCHMARKS.md between its markers
    (`<!-- soak:begin -->` … `<!-- soak:end -->`: `make soak`; `scale`: `make bench-scale`),
    markers included, or ""."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    try:
        with open(previous) as f:
            text = f.read()
    except OSError:
        return ""
    if begin not in text or end not in text:
        return ""
    return begin + text.split(begin, 1)[1].split(end, 1)[0] + end + "\n"


def main():
    results, idle_rss_kb, binary = sys.argv[1], sys.argv[2], sys.argv[3]
    previous = sys.argv[4] if len(sys.argv) > 4 else ""
    rows = []
    with open(results) as f:
        for line in f:
            name, url, rps, p50, p90, p99 = line.rstrip("\n").split("\t")
            rows.append(dict(name=name, url=url, rps=float(rps or 0), p50=p50, p90=p90, p99=p99))
    by_name = {r["name"]: r for r in rows}
    threads = os.environ.get("WRK_THREADS", "2")
    conns = os.environ.get("WRK_CONNECTIONS", "64")
    duration = os.environ.get("WRK_DURATION", "10s")
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    out = []
    out.append("# Benchmarks\n")
    out.append("Figures from one `make bench` run (`bench/run.sh`); tests never assert timings.\n")
    out.append(f"- Machine: {machine_line()}")
    out.append(f"- Date: {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}, commit {rev or 'uncommitted'}")
    out.append(f"- Load: `wrk -t{threads} -c{conns} -d{duration} --latency URL`, load generator and servers on the same machine")
    size = os.path.getsize(binary)
    rss = int(idle_rss_kb)
    out.append(f"- Release binary: {size:,} bytes = {size / 1e6:.1f} MB (budget ≤ 25 MB); idle RSS after start: {rss / 1024:.1f} MiB = {rss * 1024 / 1e6:.1f} MB (budget ≤ 30 MB)\n")
    out.append("| what | req/s | p50 | p90 | p99 | ratio |")
    out.append("|---|---:|---:|---:|---:|---|")
    for r in rows:
        base = by_name.get(RATIOS.get(r["name"], ""))
        ratio = f"{r['rps'] / base['rps']:.2f}× {base['name']}" if base and base["rps"] else ""
        out.append(f"| {r['name']} | {r['rps']:,.0f} | {r['p50']} | {r['p90']} | {r['p99']} | {ratio} |")
    out.append("")
    extra = os.environ.get("BENCH_NOTES_FILE")
    if extra and os.path.exists(extra):
        with open(extra) as f:
            out.append(f.read())
    for name in ("scale", "soak"):
        kept = kept_section(previous, name) if previous else ""
        if kept:
            out.append(kept)
    print("\n".join(out))


if __name__ == "__main__":
    main()
