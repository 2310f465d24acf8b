#!/usr/bin/env bash
# `npm run test:e2e`: the code-server end-to-end test of the packaged extension.
#   1. installs its tools (Debian chromium + libkrb5-dev, Node 24, code-server, playwright-core)
#      into .e2e-tools/ (a second run finds them and returns at once);
#   2. packages the extension (`npm run package` → hermes.vsix), unless HERMES_VSIX names one;
#   3. runs test/e2e/*.e2e.ts with node:test (the panel in code-server, Claude Code as a child).
# Screenshots and logs land in test-artifacts/e2e/. Any failure exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/../.."

bash test/e2e/setup-tools.sh
# The real Claude Code as a child agent (claude-child.e2e.ts) needs its ACP adapter (~85 MB).
bash test/e2e/setup-claude.sh

if [ -z "${HERMES_VSIX:-}" ]; then
  npm run package
  HERMES_VSIX="$PWD/hermes.vsix"
fi
export HERMES_VSIX
echo "e2e: $(du -k "$HERMES_VSIX" | cut -f1) KB $HERMES_VSIX"

# A fresh folder: screenshots of an earlier run (a failed-* one above all) must not linger.
rm -rf test-artifacts/e2e
mkdir -p test-artifacts/e2e
node --import tsx --test --test-concurrency=1 --test-timeout=600000 test/e2e/*.e2e.ts
