"""Checks gtms's /mcp with the official MCP Python SDK (and plain HTTP for the refusals).

Usage: client_check.py BASE_URL API_KEY VIEWER_TOKEN ADMIN_TOKEN
Run by tests/api/mcp.rs against an app it started. Prints one line per check; exits 1 on
the first failure with the reason.
"""
import asyncio
import json
import sys

import httpx2
import jsonschema
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

# Valid arguments for every company tool, written independently of the server's examples.
CALLS = {
    "company_get": {"slug": "apple"},
    "company_search": {"query": "micro", "limit": 3},
    "company_by_ticker": {"ticker": "msft"},
    "company_by_domain": {"domain": "https://investor.apple.com/x"},
    "company_by_cik": {"cik": "0000320193"},
    "ticker_to_slug": {"ticker": "AAPL"},
    "company_enrich": {"ticker": "AAPL"},
    "company_why_now": {"slug": "apple", "limit": 2},
    "company_statements": {"slug": "apple", "kind": "dividend"},
    "company_latest_quote": {"slug": "microsoft"},
    "company_executives": {"slug": "apple", "limit": 1, "offset": 1},
    "company_family": {"slug": "microsoft"},
    "company_sources": {"slug": "apple"},
    "companies_compare": {"slugs": ["apple", "microsoft", "nvidia"]},
    "sector_list": {},
    "sector_companies": {"sector": "Financials", "limit": 100},
    "letter_companies": {"letter": "0-9"},
    "signals_search": {"query": "acquisition", "limit": 5},
    "executives_search": {"query": "chief executive", "limit": 5},
    "receipt_verify": {"quote": "Abbott completed the acquisition of Cardiovascular Systems"},
    "coverage_stats": {},
    "directory_guide": {},
}

BAD_CALLS = [
    ("company_get", {}),
    ("company_get", {"slug": "Not A Slug"}),
    ("company_get", {"slug": "no-such-company-anywhere"}),
    ("company_get", {"slug": "apple", "extra": 1}),
    ("company_by_ticker", {"ticker": "AAPL;DROP"}),
    ("company_by_cik", {"cik": "abc"}),
    ("company_search", {"query": "a", "limit": 1000}),
    ("companies_compare", {"slugs": ["apple"]}),
    ("company_statements", {"slug": "apple", "since": "yesterday"}),
    ("company_statements", {"slug": "apple", "kind": "gossip"}),
    ("company_enrich", {}),
    ("company_enrich", {"ticker": "AAPL", "max_age_days": -1}),
    ("company_why_now", {"slug": "apple", "max_age_days": "old"}),
    ("letter_companies", {"letter": "ab"}),
    ("signals_search", {}),
    ("receipt_verify", {"quote": "short"}),
]

checks = 0


def ok(cond, what):
    global checks
    if not cond:
        print(f"FAIL: {what}")
        sys.exit(1)
    checks += 1


def envelope(res, status, what):
    ok(res.status_code == status, f"{what}: status {res.status_code} != {status}: {res.text[:200]}")
    body = res.json()
    ok(set(body) == {"error", "message", "status"} and body["status"] == status, f"{what}: envelope {body}")
    return body


def init_body():
    return {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "check", "version": "1"}},
    }


def raw_http_checks(base, key):
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    with httpx2.Client(timeout=10) as http:
        res = http.post(f"{base}/mcp", headers=headers, json=init_body())
        envelope(res, 401, "no credentials")
        challenge = res.headers.get("www-authenticate", "")
        ok(challenge.startswith("Bearer resource_metadata=\"") and "/.well-known/oauth-protected-resource" in challenge,
           f"WWW-Authenticate: {challenge!r}")
        meta_url = challenge.split('"')[1]
        meta = http.get(meta_url).json()
        ok(meta["resource"] == f"{base}/mcp" and meta["bearer_methods_supported"] == ["header"], f"metadata {meta}")
        ok(http.get(f"{base}/.well-known/oauth-protected-resource/mcp").status_code == 200, "metadata at /mcp suffix")
        bad_key = dict(headers, authorization="Bearer gtms_notakey_000")
        envelope(http.post(f"{base}/mcp", headers=bad_key, json=init_body()), 401, "invalid key")
        keyed = dict(headers, authorization=f"Bearer {key}")
        foreign = dict(keyed, origin="https://evil.example")
        envelope(http.post(f"{base}/mcp", headers=foreign, json=init_body()), 403, "foreign Origin")
        envelope(http.post(f"{base}/mcp?toolsets=company,bogus", headers=keyed, json=init_body()), 400,
                 "unknown toolset")
        envelope(http.post(f"{base}/mcp", headers=dict(keyed, **{"x-mcp-toolsets": "deals"}), json=init_body()),
                 403, "API key asking for a workspace toolset")
        own_origin = dict(keyed, origin=base)
        res = http.post(f"{base}/mcp", headers=own_origin, json=init_body())
        ok(res.status_code == 200, f"same-origin initialize: {res.status_code} {res.text[:200]}")
        guide = http.get(f"{base}/mcp/guide")
        ok(guide.status_code == 200 and "text/html" in guide.headers["content-type"], "guide page")
        ok(all(f'id="{name}"' in guide.text for name in CALLS), "guide lists every tool")
        ok("/mcp/guide" in http.get(f"{base}/llms.txt").text, "llms.txt links the guide")


async def session(base, token, path="/mcp", headers=None):
    http = httpx2.AsyncClient(headers={"authorization": f"Bearer {token}", **(headers or {})}, timeout=30)
    return http, streamable_http_client(f"{base}{path}", http_client=http)


async def tool_checks(base, key):
    http, transport = await session(base, key)
    async with http, transport as (read, write):
        async with ClientSession(read, write) as s:
            init = await s.initialize()
            ok(init.protocol_version in ("2025-06-18", "2025-11-25"), f"protocol {init.protocol_version}")
            tools = (await s.list_tools()).tools
            names = {t.name for t in tools}
            ok(len(tools) == 22 and names == set(CALLS), f"22 company tools, got {sorted(names)}")
            for t in tools:
                ok(t.description and t.input_schema.get("type") == "object", f"{t.name}: description/input schema")
                ok(t.output_schema and t.output_schema.get("type") == "object", f"{t.name}: output schema")
                a = t.annotations
                ok(a and a.read_only_hint is True and a.destructive_hint is False and a.idempotent_hint is True
                   and a.open_world_hint is False, f"{t.name}: annotations {a}")
                jsonschema.Draft202012Validator.check_schema(t.output_schema)
            by_name = {t.name: t for t in tools}
            for name, args in CALLS.items():
                res = await s.call_tool(name, args)
                text = res.content[0].text if res.content else ""
                ok(not res.is_error, f"{name}({args}) failed: {text}")
                ok(res.structured_content is not None, f"{name}: structuredContent")
                jsonschema.validate(res.structured_content, by_name[name].output_schema,
                                    cls=jsonschema.Draft202012Validator)
                ok(json.loads(text) == res.structured_content, f"{name}: text equals structuredContent")
                print(f"ok {name}")
            card = (await s.call_tool("company_get", {"slug": "apple"})).structured_content
            hint = card["mcp_package_hint"]
            ok(hint["tool"] == "company_get" and hint["arguments"] == {"slug": "apple"}, f"hint {hint}")
            claims = card["why_now"] + card["executives"] + card["family"]["subsidiaries"]
            ok(claims and all(c["receipt"]["quote"] and c["receipt"]["url"].startswith(
                "https://www.sec.gov/Archives/edgar/data/") for c in claims), "every claim has its receipt")
            ok(all(s["as_of"] and "fresh" in s and s["filed"] == s["receipt"]["filed"] for s in card["why_now"])
               and card["as_of"] and card["freshness"], "signals and the card carry their dates")
            why = (await s.call_tool("company_why_now", {"slug": "apple", "max_age_days": 100000})).structured_content
            ages = [x["age_days"] for x in why["signals"]]
            ok(ages and all(isinstance(a, int) and a >= 0 for a in ages), f"why_now ages {ages}")
            young = min(ages)
            within = (await s.call_tool("company_why_now", {"slug": "apple", "max_age_days": young})).structured_content
            ok(within["signals"] and all(x["age_days"] <= young for x in within["signals"]), "max_age_days filters")
            for name, args in [("company_why_now", {"slug": "apple", "max_age_days": 0}),
                               ("company_enrich", {"ticker": "AAPL", "max_age_days": 0})]:
                if young > 0:
                    res = await s.call_tool(name, args)
                    ok(res.is_error and "days old" in res.content[0].text, f"{name} max_age_days 0: {res.content}")
            enriched = (await s.call_tool("company_enrich", {"ticker": "AAPL"})).structured_content
            ok(isinstance(enriched["signal"]["age_days"], int), f"enrich age_days: {enriched['signal']}")
            verify = (await s.call_tool("receipt_verify", CALLS["receipt_verify"])).structured_content
            ok(verify["verified"] is True, f"receipt_verify finds a stored quote: {verify}")
            page = (await s.call_tool("letter_companies", {"letter": "a", "limit": 1})).structured_content["page"]
            ok(page["truncated"] is True and page["next_offset"] == 1, f"paging says truncated: {page}")
            for name, args in BAD_CALLS:
                res = await s.call_tool(name, args)
                ok(res.is_error is True and res.content and res.content[0].text, f"{name}({args}) must be isError")
            print(f"ok {len(BAD_CALLS)} bad calls are isError results")
            try:
                await s.call_tool("no_such_tool", {})
                ok(False, "an unknown tool must be a protocol error")
            except Exception as e:  # McpError
                ok("unknown tool" in str(e), f"unknown tool message: {e}")


async def toolset_checks(base, token):
    cases = [
        ("/mcp?toolsets=company,readonly", None, 22),
        ("/mcp", {"x-mcp-toolsets": "deals,memory"}, len(DEAL_TOOLS) + len(MEMORY_TOOLS)),
        ("/mcp?toolsets=deals,readonly", None, len(DEAL_TOOLS) - 1),
        ("/mcp?toolsets=deals", {"x-mcp-toolsets": "company"}, 22),
        ("/mcp?toolsets=workers,coordinator", None, len(WORKER_TOOLS) + len(COORDINATOR_TOOLS)),
        ("/mcp?toolsets=workers,coordinator,readonly", None, len(WORKER_TOOLS) + len(COORDINATOR_TOOLS) - 3),
        ("/mcp", None, 53),
    ]
    for path, headers, expected in cases:
        http, transport = await session(base, token, path, headers)
        async with http, transport as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                tools = (await s.list_tools()).tools
                ok(len(tools) == expected, f"toolsets {path} {headers}: {len(tools)} tools, expected {expected}")
    print("ok toolset selection")


# Read-only workspace tools and valid arguments (a workspace token sees them; keys do not).
WORKSPACE_CALLS = {
    "health": {}, "tasks_status": {}, "deals_list": {"stage": "proposal", "limit": 3}, "deal_get": {"id": "deal-001"},
    "pipeline_summary": {}, "account_brief": {"id": "deal-001"}, "metrics_pipeline": {}, "metrics_tokens": {},
    "metrics_consumption": {}, "metrics_workers": {},
    "memory_tree": {}, "memory_search": {"q": "pricing objections"}, "memory_health": {"worker_id": "sdr"},
    "brain_chat": {"message": "What do we know about Apple?"}, "brain_history": {}, "brain_history_clear": {},
    "workers_list": {}, "worker_get": {"worker_id": "sdr"}, "workflow_types": {},
    "workflows_list": {"status": "completed", "limit": 5}, "approvals_list": {}, "coordinator_runs": {"limit": 3},
}
DEAL_TOOLS = {"deals_list", "deal_get", "deal_update", "pipeline_summary", "account_brief"}
MEMORY_TOOLS = {"memory_tree", "memory_get", "memory_write", "memory_search", "memory_health", "memory_compress"}
WORKER_TOOLS = {"workers_list", "worker_get", "worker_start_workflow", "workflow_types", "workflows_list",
                "workflow_get", "approvals_list", "approval_decide"}
COORDINATOR_TOOLS = {"coordinator_run", "coordinator_runs", "coordinator_run_get"}
# Workspace tools not in WORKSPACE_CALLS: the writes, and the look-ups that need something
# written first (checked as admin in workflow_checks and workspace_checks).
OTHER_WORKSPACE_TOOLS = {"deal_update", "memory_write", "memory_compress", "memory_get", "worker_start_workflow",
                         "workflow_get", "approval_decide", "coordinator_run", "coordinator_run_get"}


async def workspace_checks(base, viewer, admin):
    http, transport = await session(base, viewer)
    async with http, transport as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            tools = {t.name: t for t in (await s.list_tools()).tools}
            for name, args in WORKSPACE_CALLS.items():
                res = await s.call_tool(name, args)
                ok(res.is_error is not True, f"{name}({args}): {res.content}")
                jsonschema.validate(res.structured_content, tools[name].output_schema)
            update = tools["deal_update"]
            ok(update.annotations.read_only_hint is False and update.annotations.idempotent_hint is False,
               f"deal_update is a write: {update.annotations}")
            res = await s.call_tool("deal_update", {"id": "deal-001", "changes": {"nextStep": "x"}})
            ok(res.is_error is True and "forbidden" in res.content[0].text, f"viewer deal_update: {res.content}")
            for name, args in [("memory_write", {"scope": "org", "key": "k", "value": "v"}),
                               ("worker_start_workflow", ONBOARDING), ("coordinator_run", {"goal": "Grow"}),
                               ("approval_decide", {"workflow_id": "client-onboarding-000000000000",
                                                    "decision": "approve"})]:
                res = await s.call_tool(name, args)
                ok(res.is_error is True and res.content[0].text.startswith("forbidden:"),
                   f"viewer {name}: {res.content}")
            res = await s.call_tool("deal_get", {"id": "deal-999"})
            ok(res.is_error is True and "not_found" in res.content[0].text, "unknown deal is isError")
    http, transport = await session(base, admin)
    async with http, transport as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            # An open deal (a closed one is final): the first in negotiation.
            listed = await s.call_tool("deals_list", {"stage": "negotiation", "limit": 1})
            open_deal = listed.structured_content["deals"][0]["id"]
            # Cursor paging: three at a time, the whole pipeline once, in id order.
            seen, cursor = [], None
            while True:
                args = {"limit": 3} | ({"cursor": cursor} if cursor else {})
                page = (await s.call_tool("deals_list", args)).structured_content
                seen += [d["id"] for d in page["deals"]]
                cursor = page["page"]["next_cursor"]
                ok(page["page"]["truncated"] == (cursor is not None), f"truncated iff a next cursor: {page['page']}")
                if cursor is None:
                    break
            ok(seen == sorted(set(seen)) and len(seen) == page["page"]["total"], f"deals_list pages: {seen}")
            res = await s.call_tool("deal_update", {"id": open_deal, "changes": {"nextStep": "Sent by an agent"}})
            ok(res.is_error is not True and res.structured_content["nextStep"] == "Sent by an agent",
               f"admin deal_update: {res.content}")
            tools = {t.name: t for t in (await s.list_tools()).tools}
            write = {"scope": "org", "key": "icp", "value": "Mid-market US banks", "tags": ["sales"]}
            for name, args in [("memory_write", write), ("memory_get", {"scope": "org", "key": "icp"}),
                               ("memory_get", {"scope": "org", "key": "icp", "history": True}),
                               ("memory_compress", {"worker_id": "sdr"})]:
                res = await s.call_tool(name, args)
                ok(res.is_error is not True, f"admin {name}({args}): {res.content}")
                jsonschema.validate(res.structured_content, tools[name].output_schema)
            res = await s.call_tool("memory_write", dict(write, scope="galaxy"))
            ok(res.is_error is True and "bad_request" in res.content[0].text, f"bad scope: {res.content}")
    print(f"ok {len(WORKSPACE_CALLS)} workspace tools and deal_update roles")


ONBOARDING = {"worker_id": "onboarding-manager", "workflow_type": "client-onboarding",
              "params": {"accountId": "acct-mcp-1", "accountName": "Home Depot", "tier": "premium"}}

# Bad arguments of the worker and coordinator tools, and the code each must answer with.
BAD_WORKFLOW_CALLS = [
    ("worker_start_workflow", dict(ONBOARDING, params={"accountId": "a"}), "bad_request", "params.accountName: missing"),
    ("worker_start_workflow", dict(ONBOARDING, params={"accountId": "a", "accountNmae": "x"}), "bad_request",
     "params.accountName: missing (unknown params given: accountNmae)"),
    ("worker_start_workflow", dict(ONBOARDING, worker_id="nobody"), "not_found", "nobody"),
    ("worker_start_workflow", dict(ONBOARDING, workflow_type="coordinator"), "bad_request", "internal"),
    ("worker_start_workflow", dict(ONBOARDING, workflow_type="lead-qualification",
                                   params={"leadId": "l", "company": "c", "contact": "p"}), "bad_request", "does not run"),
    ("worker_start_workflow", dict(ONBOARDING, params={"accountId": 1, "accountName": "x"}), "bad_request",
     "string"),
    ("worker_start_workflow", {"worker_id": "sdr"}, "bad_request", "workflow_type"),
    ("worker_get", {"worker_id": "nobody"}, "not_found", "nobody"),
    ("workflows_list", {"type": "bogus"}, "bad_request", "bogus"),
    ("workflows_list", {"status": "sleeping"}, "bad_request", "sleeping"),
    ("workflows_list", {"limit": 0}, "bad_request", "limit"),
    ("workflow_get", {"workflow_id": "client-onboarding-000000000000"}, "not_found", "no workflow"),
    ("workflow_get", {}, "bad_request", "workflow_id"),
    ("approval_decide", {"workflow_id": "client-onboarding-000000000000", "decision": "approve"}, "not_found",
     "no workflow"),
    ("approval_decide", {"workflow_id": "x", "decision": "maybe"}, "bad_request", "maybe"),
    ("coordinator_run", {"goal": "   "}, "bad_request", "goal"),
    ("coordinator_run", {"goal": "x", "budget": 3}, "bad_request", "budget"),
    ("coordinator_run_get", {"run_id": "run-000000000000"}, "not_found", "run-000000000000"),
    ("coordinator_runs", {"limit": 101}, "bad_request", "limit"),
    ("workflows_list", {"cursor": "not-a-cursor"}, "bad_request", "cursor"),
    ("approvals_list", {"offset": 5}, "bad_request", "offset"),
]


async def poll(s, tool, args, done, what):
    """Calls `tool` until `done(structuredContent)` holds, for at most 30 seconds."""
    deadline = asyncio.get_running_loop().time() + 30
    while True:
        res = await s.call_tool(tool, args)
        ok(res.is_error is not True, f"{tool}({args}): {res.content}")
        if done(res.structured_content):
            return res.structured_content
        ok(asyncio.get_running_loop().time() < deadline, f"{what} never happened: {res.structured_content}")
        await asyncio.sleep(0.05)


async def checked(s, tools, name, args):
    res = await s.call_tool(name, args)
    ok(res.is_error is not True, f"{name}({args}): {res.content}")
    jsonschema.validate(res.structured_content, tools[name].output_schema, cls=jsonschema.Draft202012Validator)
    ok(json.loads(res.content[0].text) == res.structured_content, f"{name}: text equals structuredContent")
    return res.structured_content


async def workflow_checks(base, admin):
    """Starts a workflow, sees it parked at its approval, decides it, runs the coordinator: all through MCP."""
    http, transport = await session(base, admin)
    async with http, transport as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            tools = {t.name: t for t in (await s.list_tools()).tools}
            for name in WORKER_TOOLS | COORDINATOR_TOOLS:
                t = tools[name]
                ok(t.output_schema and t.output_schema.get("type") == "object", f"{name}: output schema")
                writes = name in ("worker_start_workflow", "approval_decide", "coordinator_run")
                ok(t.annotations.read_only_hint is (not writes) and t.annotations.idempotent_hint is (not writes),
                   f"{name}: annotations {t.annotations}")
            kinds = (await checked(s, tools, "workflow_types", {}))["types"]
            ok(len(kinds) == 6 and sum(k["startable"] for k in kinds) == 4, f"six types, four startable: {kinds}")
            onboarding = next(k for k in kinds if k["type"] == "client-onboarding")
            ok(onboarding["requiredParams"] == ["accountId", "accountName"] and onboarding["optionalParams"] == ["tier"]
               and onboarding["workers"] == ["onboarding-manager"] and len(onboarding["steps"]) == 5,
               f"client-onboarding in the catalog: {onboarding}")
            started = await checked(s, tools, "worker_start_workflow", ONBOARDING)
            wid = started["workflowId"]
            ok(started["status"] == "started" and started["worker"] == "onboarding-manager", f"started {started}")
            parked = await poll(s, "workflow_get", {"workflow_id": wid}, lambda w: w["status"] == "waiting",
                                "the onboarding parking at its approval")
            jsonschema.validate(parked, tools["workflow_get"].output_schema, cls=jsonschema.Draft202012Validator)
            ok(parked["currentStep"] == "plan-approval" and parked["approval"]["pending"] is True, f"parked {parked}")
            pending = (await checked(s, tools, "approvals_list", {}))["approvals"]
            ok(any(a["workflowId"] == wid and a["step"] == "plan-approval" for a in pending), f"listed {pending}")
            worker = await checked(s, tools, "worker_get", {"worker_id": "onboarding-manager"})
            ok(worker["status"] == "waiting" and wid in worker["activeWorkflows"], f"worker waiting: {worker}")
            listed = await checked(s, tools, "workflows_list", {"worker": "onboarding-manager", "status": "waiting"})
            ok([w["workflowId"] for w in listed["workflows"]] == [wid], f"workflows_list filters: {listed}")
            decision = {"workflow_id": wid, "decision": "approve", "comment": "approved by an agent"}
            decided = await checked(s, tools, "approval_decide", decision)
            ok(decided["decision"] == "approve" and decided["workflowId"] == wid, f"decided {decided}")
            again = await s.call_tool("approval_decide", decision)
            ok(again.is_error is True and again.content[0].text.startswith("conflict:"), f"twice: {again.content}")
            done = await poll(s, "workflow_get", {"workflow_id": wid}, lambda w: w["status"] == "completed",
                              "the approved onboarding completing")
            ok(done["approval"]["decision"] == "approve" and len(done["steps"]) == 5, f"completed {done}")
            run = await checked(s, tools, "coordinator_run", {"goal": "Qualify Construction Partners"})
            ok(run["runId"].startswith("run-") and run["status"] == "started", f"run {run}")
            detail = await checked(s, tools, "coordinator_run_get", {"run_id": run["runId"]})
            ok(detail["workflowId"] == run["workflowId"] and len(detail["steps"]) >= 9, f"run detail {detail}")
            runs = await checked(s, tools, "coordinator_runs", {})
            ok(run["runId"] in [r["runId"] for r in runs["runs"]], f"runs list {runs}")
            for name, args, code, needle in BAD_WORKFLOW_CALLS:
                res = await s.call_tool(name, args)
                text = res.content[0].text if res.content else ""
                ok(res.is_error is True and text.startswith(f"{code}:") and needle in text,
                   f"{name}({args}) must be an isError {code} naming {needle!r}: {text}")
    print(f"ok worker and coordinator tools through MCP, {len(BAD_WORKFLOW_CALLS)} bad calls")


def main():
    base, key, token, admin = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    raw_http_checks(base, key)
    asyncio.run(tool_checks(base, key))
    asyncio.run(toolset_checks(base, token))
    asyncio.run(workspace_checks(base, token, admin))
    asyncio.run(workflow_checks(base, admin))
    print(f"PASS {checks} checks")


if __name__ == "__main__":
    main()
