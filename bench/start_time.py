#!/usr/bin/env python3
"""Start-up of the release binary (issue 27): milliseconds from exec to the first 200 of
GET /api/health, and the idle RSS once it answers and has settled (unchanged over half a second:
on a fresh file the demo seeding's one argon2 hash is still running at the first 200), on a
fresh data file (first start: the demo workspace is seeded) and on the same file again (every
later start). Five runs each; prints one TSV row per case: name, median ms, min ms, max ms,
median idle RSS in KiB.

    python3 bench/start_time.py BINARY PORT WORKDIR
"""

import os
import socket
import statistics
import subprocess
import sys
import time

RUNS = 5


def answers_200(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return s.recv(16).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def settled_rss_kib(pid: int, deadline_s: float = 5.0) -> int:
    """RSS once it reads the same five times 100 ms apart (or at the deadline)."""
    end = time.perf_counter() + deadline_s
    last, same = rss_kib(pid), 0
    while same < 5 and time.perf_counter() < end:
        time.sleep(0.1)
        now = rss_kib(pid)
        same = same + 1 if now == last else 0
        last = now
    return last


def start_once(binary: str, port: int, data: str) -> tuple[float, int]:
    env = dict(os.environ, GTMS_LOG="warn")
    begin = time.perf_counter()
    proc = subprocess.Popen(
        [binary, "serve", "--listen", f"127.0.0.1:{port}", "--data", data],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    try:
        deadline = begin + 30
        while not answers_200(port):
            if time.perf_counter() > deadline or proc.poll() is not None:
                raise SystemExit(f"start_time: {binary} did not answer on port {port}")
        elapsed = (time.perf_counter() - begin) * 1000
        return elapsed, settled_rss_kib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    binary, port, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    for case in ("fresh data file", "existing data file"):
        runs = []
        for i in range(RUNS):
            data = os.path.join(work, f"start-{i}.redb")
            if case == "fresh data file" and os.path.exists(data):
                os.remove(data)
            runs.append(start_once(binary, port, data))
        ms = [r[0] for r in runs]
        rss = statistics.median(r[1] for r in runs)
        print(f"{case}\t{statistics.median(ms):.1f}\t{min(ms):.1f}\t{max(ms):.1f}\t{rss:.0f}")


if __name__ == "__main__":
    main()
