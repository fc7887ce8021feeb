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

# One run of the integration runner (extra settings as `env` arguments): its counts added to the
# totals, and a summary line kept; a run that ends badly without a failed test counts as one.
summaries=()
integration() {
  local name="$1"; shift
  env "$@" npm run --silent test:integration 2>&1 | tee "$out/$name.txt"
  local status=${PIPESTATUS[0]} line pass fail
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/$name.txt" | tail -1)
  pass=$(echo "$line" | awk '{print $1}'); fail=$(echo "$line" | awk '{print $3}')
  passed=$((passed + ${pass:-0})); failed=$((failed + ${fail:-0}))
  if [ "$status" -ne 0 ] && [ "${fail:-0}" -eq 0 ]; then failed=$((failed + 1)); echo "$name run failed before reporting tests"; fi
  summaries+=("$name: ${pass:-0} passed, ${fail:-0} failed")
}

step "integration tests (real VS Code)"
integration integration

step "integration, pseudo-localized (the UI checks find no English of ours)"
integration "integration, pseudo-localized" OMS_IT_LOCALE=qps-ploc OMS_IT_UI_ONLY=1 OMS_UI_GREP=pseudo

# CI may show only the head and tail of this output: each failure's name and first lines again here.
if [ "$failed" -gt 0 ]; then
  echo
  echo "failures (first lines; the whole message is above):"
  grep -h -E '^ *not ok ' "$out/unit.txt" | cut -c1-300
  grep -h -E -A3 '^  [0-9]+\) ' "$out"/integration*.txt | cut -c1-300
fi

echo
echo "unit: ${unit_pass:-0} passed, ${unit_fail:-0} failed"
printf '%s\n' "${summaries[@]}"
echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
