#!/usr/bin/env bash
# README's test command (`npm test`), also what CI runs: install what is
# missing, type-check, lint (ESLint, knip), unit tests, package the .vsix,
# integration tests in a real VS Code, then its pseudo-localized UI checks. Ends with one summary line: `total: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

step() { printf '\n=== %s\n' "$*"; }
fail() { echo "$*"; echo "total: ${passed:-0} passed, $((${failed:-0} + 1)) failed"; exit 1; }

step "dependencies"
bash scripts/deps.sh || fail "npm install failed"

step "type-check"
npm run --silent typecheck || fail "type-check failed"

step "lint (ESLint; knip: unused files, exports, dependencies, also in production mode)"
npm run --silent lint || fail "lint failed"

step "unit tests"
npm run --silent test:unit 2>&1 | tee "$out/unit.txt"
unit_status=${PIPESTATUS[0]}
unit_pass=$(grep -E '^# pass [0-9]+' "$out/unit.txt" | tail -1 | awk '{print $3}')
unit_fail=$(grep -E '^# fail [0-9]+' "$out/unit.txt" | tail -1 | awk '{print $3}')
passed=${unit_pass:-0}; failed=${unit_fail:-0}
[ "$unit_status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1

step "package"
npm run --silent package || fail "packaging failed"

step "integration tests (real VS Code)"
npm run --silent test:integration 2>&1 | tee "$out/integration.txt"
int_status=${PIPESTATUS[0]}
int_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/integration.txt" | tail -1)
int_pass=$(echo "$int_line" | awk '{print $1}')
int_fail=$(echo "$int_line" | awk '{print $3}')
passed=$((passed + ${int_pass:-0})); failed=$((failed + ${int_fail:-0}))
if [ "$int_status" -ne 0 ] && [ "${int_fail:-0}" -eq 0 ]; then failed=$((failed + 1)); echo "integration run failed before reporting tests"; fi

step "integration, pseudo-localized (the UI checks find no English of ours)"
OMS_IT_LOCALE=qps-ploc OMS_IT_UI_ONLY=1 OMS_UI_GREP=pseudo npm run --silent test:integration 2>&1 | tee "$out/pseudo.txt"
pseudo_status=${PIPESTATUS[0]}
pseudo_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/pseudo.txt" | tail -1)
pseudo_pass=$(echo "$pseudo_line" | awk '{print $1}')
pseudo_fail=$(echo "$pseudo_line" | awk '{print $3}')
passed=$((passed + ${pseudo_pass:-0})); failed=$((failed + ${pseudo_fail:-0}))
if [ "$pseudo_status" -ne 0 ] && [ "${pseudo_fail:-0}" -eq 0 ]; then failed=$((failed + 1)); echo "pseudo-localized run failed before reporting tests"; fi

echo
echo "unit: ${unit_pass:-0} passed, ${unit_fail:-0} failed"
echo "integration: ${int_pass:-0} passed, ${int_fail:-0} failed"
echo "integration, pseudo-localized: ${pseudo_pass:-0} passed, ${pseudo_fail:-0} failed"
echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
