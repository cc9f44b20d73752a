# gtms — the two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
CARGO ?= cargo
# Every build but `make run`'s is static and names its target (.cargo/static.toml).
CARGO_STATIC := $(CARGO) --config .cargo/static.toml
TARGET := x86_64-unknown-linux-gnu
SHARED ?= ../shared/data

BIN_DIR := target/$(TARGET)
# The binary the tests start (CARGO_BIN_EXE_gtms).
TEST_BIN := $(BIN_DIR)/debug/gtms
# The EDGAR pipeline's binary (crates/edgar). `EDGAR=$(BIN_DIR)/debug/gtms-edgar` runs the one
# the tests built instead of `cargo run` (which would build it again without the tests'
# dev-only features: CI does this).
EDGAR ?= $(CARGO_STATIC) run --quiet -p gtms-edgar --

.PHONY: run test test-fast deps dist dist-check bench bench-scale soak crash lint deny seed seed-check static-check ingest quality fuzz fuzz-smoke refresh tool-schemas openapi

## Build and start the appliance in demo mode on http://127.0.0.1:3000
run:
	$(CARGO) run --profile quick -- serve --mode demo --listen 127.0.0.1:3000

## Every test: unit, filter and end-to-end (the real app and the real binary)
test: deps
	$(CARGO_STATIC) test --workspace --all-targets --no-fail-fast -- --test-threads=4
	$(CARGO_STATIC) test --workspace --doc

## The inner loop: unit tests and in-process filter tests (warp::test), no external programs
test-fast:
	$(CARGO_STATIC) test --workspace --lib

## What the tests need besides cargo (nginx, chromium, the Python MCP SDK, the Inspector, the Temporal CLI)
deps:
	@tests/deps/install.sh

## A fully static x86-64 Linux binary in dist/gtms (glibc crt-static, rustls only; fat LTO)
dist:
	$(CARGO_STATIC) build --release --target $(TARGET)
	mkdir -p dist && cp target/$(TARGET)/release/gtms dist/gtms
	@$(MAKE) --no-print-directory static-check

## CI's check of the static link, on the binary the tests build and run (same target and flags
## as `make dist`, without the release profile's fat LTO). Built as the tests build it (dev-only
## features unified), so after `cargo test --no-run` nothing is compiled again.
dist-check:
	$(CARGO_STATIC) test --workspace --all-targets --no-run --quiet
	@$(MAKE) --no-print-directory static-check STATIC_BIN=$(TEST_BIN)

STATIC_BIN ?= dist/gtms
static-check:
	@file $(STATIC_BIN) | grep -Eq 'static(-pie)? linked' || { echo "$(STATIC_BIN) is not statically linked: $$(file $(STATIC_BIN))"; exit 1; }
	@ldd $(STATIC_BIN) 2>&1 | grep -Eq 'not a dynamic executable|statically linked' || { echo "ldd sees dynamic libraries"; exit 1; }
	@echo "$(STATIC_BIN): static, $$(stat -c %s $(STATIC_BIN)) bytes ($$(du -h $(STATIC_BIN) | cut -f1))"

## Benchmarks (wrk against the release binary, with yardsticks) -> BENCHMARKS.md
bench:
	bench/run.sh

## Reads at 1/10 and full size (100k deals, 1M memory entries, 100k workflows): the Scale section of BENCHMARKS.md (not in CI)
bench-scale:
	bench/scale.sh

## Soak: SOAK_SECS (default 600) of mixed load on the release binary; 0 errors, RSS growth < 10 %
## after the warm-up; figures into BENCHMARKS.md (its soak section)
soak:
	bench/soak.sh

## Crash rounds: SIGKILL the real binary under 32 clients, CRASH_ROUNDS times (`make test` runs 10
## with a fixed seed; this one a fresh seed, printed, so a failure can be replayed with CRASH_SEED=)
CRASH_ROUNDS ?= 30
CRASH_SEED ?= $(shell date +%s)
crash:
	CRASH_ROUNDS=$(CRASH_ROUNDS) CRASH_SEED=$(CRASH_SEED) $(CARGO_STATIC) test --test api crash_rounds -- --nocapture

## Fuzz every parser target (fuzz/) for FUZZ_SECS seconds each (release build, AddressSanitizer);
## a crash stops with its input in fuzz/artifacts/
FUZZ_TARGETS := slug domain ticker memory_scope session_token json_body
FUZZ_SECS ?= 300
FUZZ_BUILD ?= -O
fuzz:
	@command -v cargo-fuzz >/dev/null || cargo install --quiet --locked cargo-fuzz
	cd fuzz && for t in $(FUZZ_TARGETS); do \
	  mkdir -p corpus/$$t && \
	  RUSTC_BOOTSTRAP=1 cargo fuzz run $(FUZZ_BUILD) $$t corpus/$$t seeds/$$t -- -max_total_time=$(FUZZ_SECS) -rss_limit_mb=2048 || exit 1; \
	done

## Each fuzz target for 10 s: a debug build with debug assertions and libFuzzer's coverage but
## no sanitizer. (CI replays the seeds and their mutations inside `make test` instead: no
## second build; see docs/testing.md.)
fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECS=10 FUZZ_BUILD='--dev --sanitizer none'

## Formatting and clippy, warnings as errors (CI lints during its one build instead: .ci/run)
lint:
	$(CARGO) fmt --all --check
	$(CARGO_STATIC) clippy --workspace --all-targets -- -D warnings

## Licences, bans (duplicate versions called out) and sources of every dependency (deny.toml)
deny:
	@log=$$(mktemp) && trap 'rm -f $$log' EXIT && \
	if cargo-deny check --hide-inclusion-graph licenses bans sources >$$log 2>&1; then \
	  grep -o "duplicate entries for crate '[^']*'" $$log | sed 's/^/called out: /'; tail -1 $$log; \
	else cat $$log; exit 1; fi

## Regenerate the embedded company files (assets/company) from seed/
ingest:
	$(CARGO_STATIC) run -- ingest --seed seed --out assets/company

## Rebuild fresh embedded data where internet exists (never in CI): fetch what EDGAR filed since
## SINCE (default: the newest filing the seed holds) for TICKERS (default: every tracked company),
## then extract, ingest and build. Needs GTMS_EDGAR_USER_AGENT="Name contact@example.com".
refresh:
	@since="$${SINCE:-$$(grep -o '"filed":"[0-9-]*","accession":"' seed/companies.jsonl | sort | tail -1 | cut -d'"' -f4)}"; \
	echo "refresh: filings since $$since"; \
	$(EDGAR) fetch --out $(SHARED) --since "$$since" $(TICKERS)
	$(MAKE) seed ingest
	$(CARGO_STATIC) build --release

## Regenerate the company extract in seed/ from the shared EDGAR data
seed:
	$(EDGAR) extract --from $(SHARED) --out seed

## Regenerate into a temporary directory and fail if the committed extract differs
seed-check:
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && \
	$(EDGAR) extract --from $(SHARED) --out $$tmp >/dev/null && \
	diff -q $$tmp/companies.jsonl seed/companies.jsonl && echo "seed/ is up to date"

## Write the MCP tools' input and output schemas (src/mcp/tool_schemas.json) from their types
tool-schemas:
	GTMS_WRITE_TOOL_SCHEMAS=1 $(CARGO_STATIC) test --lib -p gtms -- mcp::tool_schemas::tests::the_embedded_schemas_are_the_types_own

## Write the OpenAPI document (src/http/api_doc/openapi.json) from the route table and its types
openapi:
	GTMS_WRITE_OPENAPI=1 $(CARGO_STATIC) test --lib -p gtms -- http::api_doc::openapi::tests::the_embedded_document_is_the_tables_own

## Signal quality against the hand-judged evaluation set (per-kind precision/recall, budgets)
quality:
	$(CARGO_STATIC) test -p gtms-edgar --test quality -- --nocapture
