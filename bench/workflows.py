#!/usr/bin/env python3
"""Workflow throughput (either engine): start N lead-qualification workflows (5 steps each, no approval)
from C client threads, wait until all completed, print completed workflows per second.

usage: workflows.py BASE_URL TOKEN N CLIENTS [POLL_SECS]
"""
import json
import sys
import threading
import time
import urllib.request

base, token, total, clients = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
poll = float(sys.argv[5]) if len(sys.argv) > 5 else 0.05


def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + token)
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=60) as res:
        return json.load(res)


def completed():
    return call("GET", "/api/coordinator/workflows?type=lead-qualification&status=completed")["total"]


before = completed()
started = time.monotonic()


def client(n):
    for i in range(n, total, clients):
        params = {"leadId": "bench-%d" % i, "company": "Home Depot", "contact": "bench"}
        call("POST", "/api/workers/sdr/start", {"workflowType": "lead-qualification", "params": params})


threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join()
deadline = time.monotonic() + 600
while completed() - before < total:
    if time.monotonic() > deadline:
        sys.exit("bench: workflows did not complete in 10 minutes")
    time.sleep(poll)
elapsed = time.monotonic() - started
print("%.1f" % (total / elapsed))
