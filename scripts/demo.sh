#!/usr/bin/env bash
# README's run command (`npm start`): installs what is missing, builds and
# packages the extension, starts the sandbox with demo data, and opens VS Code
# with the extension connected to it. Ctrl-C stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
npm run --silent package >/dev/null
exec node --import tsx scripts/demo.ts "$@"
