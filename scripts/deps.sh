#!/usr/bin/env bash
# Installs the npm packages package-lock.json pins when node_modules is missing
# or older than the lock (used by scripts/test-all.sh and scripts/demo.sh).
# `npm install`, not `npm ci`: the npm registry these machines reach serves only
# the Linux builds of knip's native parser (@oxc-parser/binding-*), so the lock
# cannot list the others and `npm ci` refuses it as out of sync; `npm install`
# with the lock installs the same pinned versions.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --no-audit --no-fund --no-save
fi
