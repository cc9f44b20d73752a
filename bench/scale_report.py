#!/usr/bin/env python3
"""The "Scale" section of BENCHMARKS.md and its plot, from one `make bench-scale` run.

    python3 bench/scale_report.py WORKDIR BENCHMARKS.md PLOT.svg

WORKDIR holds, per size (`tenth`, `full`), `<size>.tsv` (bench/lib.sh `measure` rows: name, url,
req/s, p50, p90, p99; a read's several runs each a row, of which the median p99's is reported) and `<size>.facts` (name<TAB>value lines: the size, start ms, RSS KiB, the
load times and the rollup time). The section replaces the previous "## Scale" section (or is
appended), between `<!-- scale:begin -->` and `<!-- scale:end -->`, which `make bench` keeps; the
plot is p99 against workload size, log-log, one line per read.
"""

import math
import re
import sys
from pathlib import Path

SIZES = ("tenth", "full")
BEGIN, END = "<!-- scale:begin -->", "<!-- scale:end -->"
BUDGET_P99_MS = 20.0
BUDGET_GROWTH = 2.0
BUDGET_ROLLUP_MS = 2000.0
BUDGET_RSS_MB = 500.0


def ms(text: str) -> float:
    """A wrk latency (`850.00us`, `1.23ms`, `1.02s`, `2.00m`) in milliseconds."""
    m = re.fullmatch(r"([0-9.]+)(us|ms|s|m)", text.strip())
    if not m:
        return float("nan")
    value, unit = float(m.group(1)), m.group(2)
    return value * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def read(work: Path, size: str) -> tuple[dict, dict]:
    """Each read's run with the median p99 (bench/scale.sh measures a read SCALE_RUNS times)."""
    runs: dict[str, list] = {}
    for line in (work / f"{size}.tsv").read_text().splitlines():
        name, _url, rps, p50, _p90, p99 = line.split("\t")
        runs.setdefault(name, []).append({"rps": float(rps or 0), "p50": ms(p50), "p99": ms(p99)})
    rows = {name: sorted(rs, key=lambda r: r["p99"])[(len(rs) - 1) // 2] for name, rs in runs.items()}
    facts = {}
    for line in (work / f"{size}.facts").read_text().splitlines():
        name, *values = line.split("\t")
        facts[name] = values
    return rows, facts


def plot(results: dict, facts: dict, path: Path) -> None:
    """p99 (ms) against the number of workflows + deals + memory entries, log-log."""
    width, height, left, right, top, bottom = 760, 420, 70, 250, 20, 50
    sizes = {s: sum(int(v) for v in facts[s]["size"]) for s in SIZES}
    values = [r["p99"] for s in SIZES for r in results[s].values() if r["p99"] > 0]
    lo_y = 10 ** math.floor(math.log10(min(values + [0.1])))
    hi_y = 10 ** math.ceil(math.log10(max(values + [BUDGET_P99_MS])))
    lo_x, hi_x = sizes["tenth"] / 2, sizes["full"] * 2

    def x(v: float) -> float:
        return left + (math.log10(v) - math.log10(lo_x)) / (math.log10(hi_x) - math.log10(lo_x)) * (width - left - right)

    def y(v: float) -> float:
        return top + (math.log10(hi_y) - math.log10(v)) / (math.log10(hi_y) - math.log10(lo_y)) * (height - top - bottom)

    colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
              "#17becf", "#393b79", "#637939"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="11"><rect width="100%" height="100%" fill="white"/>']
    decade = lo_y
    while decade <= hi_y * 1.0001:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(decade):.1f}" y2="{y(decade):.1f}" stroke="#ddd"/>'
                   f'<text x="{left - 6}" y="{y(decade) + 4:.1f}" text-anchor="end">{decade:g} ms</text>')
        decade *= 10
    budget = y(BUDGET_P99_MS)
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{budget:.1f}" y2="{budget:.1f}" stroke="#c00" '
               f'stroke-dasharray="4 3"/><text x="{width - right - 4}" y="{budget - 4:.1f}" text-anchor="end" '
               f'fill="#c00">budget 20 ms</text>')
    for s in SIZES:
        out.append(f'<line x1="{x(sizes[s]):.1f}" x2="{x(sizes[s]):.1f}" y1="{top}" y2="{height - bottom}" '
                   f'stroke="#eee"/><text x="{x(sizes[s]):.1f}" y="{height - bottom + 16}" text-anchor="middle">'
                   f'{sizes[s]:,} records</text>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 10}" text-anchor="middle">workload size '
               f'(deals + memory entries + workflows), log scale</text>')
    for i, name in enumerate(results["full"]):
        if name not in results["tenth"]:
            continue
        color = colors[i % len(colors)]
        a, b = results["tenth"][name]["p99"], results["full"][name]["p99"]
        if a > 0 and b > 0:
            out.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{x(sizes["tenth"]):.1f},'
                       f'{y(a):.1f} {x(sizes["full"]):.1f},{y(b):.1f}"/>')
        ly = top + 14 * i + 10
        out.append(f'<rect x="{width - right + 12}" y="{ly - 8}" width="10" height="10" fill="{color}"/>'
                   f'<text x="{width - right + 28}" y="{ly + 1}">{name}</text>')
    out.append("</svg>")
    path.write_text("\n".join(out) + "\n")


def section(results: dict, facts: dict, plot_path: str) -> str:
    full, tenth = facts["full"], facts["tenth"]
    lines = ["## Scale", "",
             f"`make bench-scale` (not in CI), one run: a tenth ({int(tenth['size'][0]):,} deals, "
             f"{int(tenth['size'][1]):,} memory entries, {int(tenth['size'][2]):,} workflows) and the full size "
             f"({int(full['size'][0]):,} / {int(full['size'][1]):,} / {int(full['size'][2]):,}), each a fresh file "
             "seeded by the appliance and filled through the bulk path (`examples/scale_load.rs`: the store's own "
             "write paths, every index kept). wrk, 1 thread, 4 connections, 5 s per run; each read run three times "
             "(`SCALE_RUNS`), the run with the median p99 reported. The reads are one admin's; the Brain chat is four "
             "users of the team taking turns, so that the four connections post to four threads (until session 30 "
             "one user's thread took all four).", "",
             "| read | p50 at 1/10 | p99 at 1/10 | p50 full | p99 full | p99 full ÷ 1/10 | req/s full | budget |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for name, row in results["full"].items():
        small = results["tenth"].get(name, {"p50": float("nan"), "p99": float("nan")})
        growth = row["p99"] / small["p99"] if small["p99"] > 0 else float("nan")
        met = row["p99"] <= BUDGET_P99_MS and growth <= BUDGET_GROWTH
        lines.append(f"| {name} | {small['p50']:.2f} ms | {small['p99']:.2f} ms | {row['p50']:.2f} ms | "
                     f"{row['p99']:.2f} ms | {growth:.2f}x | {row['rps']:,.0f} | {'met' if met else '**not met**'} |")
    rollup = float(full["rollup ms"][0])
    rss_mb = int(full["rss kib"][0]) / 1024
    lines += ["",
              f"- Metric rollup over the full size: **{rollup:,.0f} ms** (1/10: {float(tenth['rollup ms'][0]):,.0f} ms; "
              f"budget ≤ 2,000 ms: {'met' if rollup <= BUDGET_ROLLUP_MS else '**not met**'}).",
              f"- RSS of the server after the reads at full size: **{rss_mb:,.0f} MB** (1/10: "
              f"{int(tenth['rss kib'][0]) / 1024:,.0f} MB; budget ≤ 500 MB: "
              f"{'met' if rss_mb <= BUDGET_RSS_MB else '**not met**'}).",
              f"- Start to the first 200 on the full file: {full['start ms'][0]} ms (the indexes are built from it).",
              f"- Bulk load at full size: deals {full['load deals s'][0]} s, memory {full['load memory s'][0]} s, "
              f"workflows {full['load workflows s'][0]} s.",
              "- Budget: every read p99 ≤ 20 ms at full size and within 2x of the 1/10 size.", "",
              f"![p99 against size, log-log]({plot_path})", ""]
    return "\n".join(lines)


def main() -> None:
    work, bench_md, plot_path = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    results, facts = {}, {}
    for size in SIZES:
        results[size], facts[size] = read(work, size)
    plot(results, facts, plot_path)
    text = BEGIN + "\n" + section(results, facts, str(plot_path)) + END + "\n"
    old = bench_md.read_text() if bench_md.exists() else "# Benchmarks\n"
    if BEGIN in old and END in old:
        new = old.split(BEGIN, 1)[0] + text + old.split(END, 1)[1].lstrip("\n")
    else:
        new = old.rstrip("\n") + "\n\n" + text
    bench_md.write_text(new)
    print(text)


if __name__ == "__main__":
    main()
