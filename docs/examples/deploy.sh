#!/usr/bin/env bash
# Gate a Flink deployment on ckptlint: show what `ckptlint fix` would change,
# apply it, then refuse to deploy while a finding at or above the fail level
# remains. Documented in docs/ci.md; tested by test/pipeline (deploy_test.go).
#
# Usage: deploy.sh [PATH...]     (default: the current directory)
#
# Environment:
#   CKPTLINT             the ckptlint binary (default: ckptlint on PATH)
#   CKPTLINT_FIX         "false": show the diff but do not rewrite the files (default: true)
#   CKPTLINT_FAIL_LEVEL  error, warning or info (default: error)
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
fail_level=${CKPTLINT_FAIL_LEVEL:-error}
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
  1)
    # 2. Apply it: every file or none, each changed file written atomically.
    if [ "$fix" = "true" ]; then
      "$ckptlint" fix "$@"
    else
      echo "ckptlint fix: not applied (CKPTLINT_FIX=$fix)"
    fi
    ;;
  *) exit "$status" ;;
esac

# 3. The gate: nothing on standard output (--quiet), the JSON report in a file
#    for machines, and the exit code decides.
status=0
"$ckptlint" lint --fail-level "$fail_level" --quiet --format "json=$report" "$@" || status=$?
case $status in
  0) deploy "$@" ;;
  1)
    echo "ckptlint: findings at or above $fail_level remain (report: $report); not deploying:" >&2
    # The same findings, once more, for the humans reading the log.
    "$ckptlint" lint --fail-level "$fail_level" --format text "$@" >&2 || true
    exit 1
    ;;
  *) exit "$status" ;;
esac
