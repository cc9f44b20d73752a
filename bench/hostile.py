#!/usr/bin/env python3
"""Hostile-load memory report (issue 11): RSS of a running gtms before and after
300 bad logins from 30 client addresses (64 at a time), 300 forged API keys, and mixed wrk
load. Usage: hostile.py BASE_URL PID API_KEY WRK_SECONDS. Prints a Markdown table."""
import concurrent.futures as cf
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

base, pid, key, wrk_secs = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])


def kib(field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1])
    return 0


def mib(k):
    return f"{k / 1024:.0f} MiB"


def send(req):
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except Exception:
        return 0


def bad_login(i):
    body = json.dumps({"inviteCode": f"inv_{i:012x}_{i:032x}"}).encode()
    req = urllib.request.Request(f"{base}/auth/login", data=body, method="POST")
    req.add_header("content-type", "application/json")
    req.add_header("x-forwarded-for", f"203.0.113.{i % 30}")
    return send(req)


def forged_key(i):
    prefix = key.rsplit("_", 1)[0]
    req = urllib.request.Request(f"{base}/v1/enrich?ticker=AAPL")
    req.add_header("authorization", f"Bearer {prefix}_{i:064x}")
    return send(req)


def burst(fn, n=300, at_once=64):
    started = time.time()
    with cf.ThreadPoolExecutor(at_once) as pool:
        statuses = list(pool.map(fn, range(n)))
    counts = {}
    for s in statuses:
        counts[s] = counts.get(s, 0) + 1
    return counts, time.time() - started


rows = [("idle", kib("VmRSS:"), kib("VmHWM:"), "")]
counts, secs = burst(bad_login)
rows.append(("after 300 bad logins (30 addresses, 64 at a time)", kib("VmRSS:"), kib("VmHWM:"), f"{counts} in {secs:.1f} s"))
counts, secs = burst(forged_key)
rows.append(("after 300 forged keys (64 at a time)", kib("VmRSS:"), kib("VmHWM:"), f"{counts} in {secs:.1f} s"))
lua = sys.argv[5] if len(sys.argv) > 5 else "bench/mixed.lua"
out = subprocess.run(["wrk", "-t2", "-c64", f"-d{wrk_secs}s", "-s", lua, base], capture_output=True, text=True, env={"GTMS_KEY": key, "PATH": os.environ.get("PATH", "/usr/bin:/bin")})
rps = next((l.split()[1] for l in out.stdout.splitlines() if l.startswith("Requests/sec")), "?")
rows.append((f"after {wrk_secs} s of mixed wrk load", kib("VmRSS:"), kib("VmHWM:"), f"{rps} req/s"))
time.sleep(10)
rows.append(("after 10 s idle", kib("VmRSS:"), kib("VmHWM:"), ""))
health = send(urllib.request.Request(f"{base}/api/health"))
print("| moment | RSS | peak RSS (VmHWM) | answers |")
print("|---|---|---|---|")
for name, rss, hwm, note in rows:
    print(f"| {name} | {mib(rss)} | {mib(hwm)} | {note} |")
print(f"\nHealth after the run: {health}.")
