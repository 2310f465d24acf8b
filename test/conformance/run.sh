#!/usr/bin/env bash
# The MCP conformance suite's client scenarios against the built Hermes (dist/): installs the
# tools when missing (setup-tools.sh), builds, and runs them all (run.ts prints the table).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash test/conformance/setup-tools.sh
[ -f dist/hermes.js ] || npm run build
node --import tsx test/conformance/run.ts "$@"
