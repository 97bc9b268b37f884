#!/usr/bin/env bash
# Gate a Flink deployment on ckptlint: show what `ckptlint fix` would change,
# apply it, and deploy only when no finding at or above the fail level remains.
# Documented in docs/ci.md; tested by test/pipeline (deploy_test.go).
#
# The short form of the same gate is one line, because `ckptlint fix` exits 0
# only when no finding at or above --fail-level remains after fixing:
#
#   ckptlint fix && kubectl apply -f deploy/
#
# Usage: deploy.sh [PATH...]     (default: the current directory)
#
# Environment:
#   CKPTLINT             the ckptlint binary (default: ckptlint on PATH)
#   CKPTLINT_FIX         "false": show the diff but do not rewrite the files (default: true)
#   CKPTLINT_FAIL_LEVEL  error, warning or info (default: warning, ckptlint's)
#   CKPTLINT_REPORT      where to write the JSON report for machines (default: ckptlint-report.json)
#
# Exit codes are ckptlint's, so callers can tell a finding from a broken run:
#   0  no finding at or above the fail level: deployed
#   1  findings at or above the fail level remain: not deployed (see the report)
#   2  usage, .ckptlint.hcl, input or policy error (bad flag, unreadable path, a
#      deployment block naming a missing file): nothing was changed or deployed
#   3  internal ckptlint error (a bug: please report it): nothing deployed
set -euo pipefail

ckptlint=${CKPTLINT:-ckptlint}
fix=${CKPTLINT_FIX:-true}
fail_level=${CKPTLINT_FAIL_LEVEL:-warning}
report=${CKPTLINT_REPORT:-ckptlint-report.json}

# Replace with the real deployment: kubectl apply -f ..., flink run ..., helm upgrade ...
deploy() {
  echo "deploy: configuration checked, deploying $*"
}

# 1. What would `ckptlint fix` change? The diff goes to the log: exit 0 means
#    nothing to change, 1 means the diff is not empty, 2 or 3 a failure.
status=0
"$ckptlint" fix --diff "$@" || status=$?
case $status in
  0) echo "ckptlint fix: nothing to change" ;;
  1) ;;
  *) exit "$status" ;;
esac

# 2. The gate. `ckptlint fix` applies the diff (every file or none, each
#    written atomically) and exits 0 only when no finding at or above the fail
#    level remains, 1 when some do (it lists them), 2 or 3 on a failure. With
#    CKPTLINT_FIX=false the files are judged as they are, by `ckptlint lint`.
status=0
if [ "$fix" = "true" ]; then
  "$ckptlint" fix --fail-level "$fail_level" "$@" || status=$?
else
  echo "ckptlint fix: not applied (CKPTLINT_FIX=$fix)"
  "$ckptlint" lint --fail-level "$fail_level" --format text "$@" >&2 || status=$?
fi
if [ "$status" -ge 2 ]; then
  exit "$status"
fi

# 3. The JSON report of the files as they are now, for machines: nothing on
#    standard output (--quiet). Its exit code 1 is the gate's verdict again; 2
#    or 3 (the report could not be written) stop the script.
rstatus=0
"$ckptlint" lint --fail-level "$fail_level" --quiet --format "json=$report" "$@" || rstatus=$?
if [ "$rstatus" -ge 2 ]; then
  exit "$rstatus"
fi

if [ "$status" -eq 0 ]; then
  deploy "$@"
else
  echo "ckptlint: findings at or above $fail_level remain (report: $report); not deploying" >&2
  exit 1
fi
