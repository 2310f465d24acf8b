#!/usr/bin/env bash
# Installs Claude Code's ACP adapter for the child-agent end-to-end test (claude-child.e2e.ts):
# @zed-industries/claude-agent-acp 0.23.x (runs on Node 20; it bundles the Claude Code binary,
# ~390 MB) into .e2e-tools/claude/ (git-ignored). A second run with it present returns at once.
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR="$PWD/.e2e-tools/claude"
BIN="$DIR/node_modules/@zed-industries/claude-agent-acp/dist/index.js"

if [ ! -f "$BIN" ]; then
  mkdir -p "$DIR"
  (cd "$DIR" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install --no-audit --no-fund --loglevel=error @zed-industries/claude-agent-acp@0.23 >/dev/null)
fi
[ -f "$BIN" ] || { echo "setup-claude: $BIN is missing after the install" >&2; exit 1; }
echo "claude-agent-acp $(node -p "require('$DIR/node_modules/@zed-industries/claude-agent-acp/package.json').version") ready in $DIR"
