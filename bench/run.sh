#!/usr/bin/env bash
# bench/run.sh: the whole-process benchmark of docs/performance.md (issue 13
# item 5). In one run, on the same generated monorepo (internal/benchrepo),
# it times ckptlint cold (no cache), warm (nothing changed), with one file
# edited, the parse-only floor (internal/benchrepo/parseonly.go) and
# conftest (pinned, installed by this script) running the 6-rule policy in
# bench/conftest/policy.rego (`conftest test --combine`, the ratios' base)
# and bench/conftest/perfile/policy.rego (per file); then one config set (the pre-commit case),
# the cold run in --format json and sarif, a second tree shape with many findings
# (benchrepo.WriteMixed: legacy and nested files) cold, warm and edited in JSON and
# SARIF beside conftest on it (cached, nothing changed and one file edited, in
# both), and the peak RSS at 10,000 sets.
#
#   bash bench/run.sh                  # from the repository root
#   RUNS=9 SETS=2000 BIG=10000 bash bench/run.sh
#
# Every case runs once per round, rounds alternate the order of ckptlint and
# conftest, and each case is one whole process under /usr/bin/time (wall,
# user+sys CPU, peak RSS). The table gives medians over the rounds and the
# median of the per-round ratios (a paired comparison: a load spike on the
# shared machine hits both sides of a pair). With hyperfine installed
# (`apt-get install hyperfine`), it also prints hyperfine's own summary of
# the cold cases as a cross-check (HYPERFINE=0 skips it).
#
# Environment: SETS (2000), BIG (10000, peak RSS), RUNS (5 rounds), BIG_RUNS
# (3), WORK (scratch directory, default $TMPDIR/ckptlint-bench), BENCH_BIN
# (where conftest is installed, default $XDG_CACHE_HOME/ckptlint-bench/bin),
# REPORT_ONLY=1 (print the table of the runs already in $WORK/results).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
SETS=${SETS:-2000}
BIG=${BIG:-10000}
RUNS=${RUNS:-5}
BIG_RUNS=${BIG_RUNS:-3}
WORK=${WORK:-${TMPDIR:-/tmp}/ckptlint-bench}
BENCH_BIN=${BENCH_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/ckptlint-bench/bin}
CONFTEST_VERSION=v0.71.1 # the version issue 13's table was measured against
POLICY=$REPO/bench/conftest/policy.rego
TIME=/usr/bin/time

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$TIME" ] || die "$TIME is missing (Debian: apt-get install time)"
command -v go >/dev/null || die "go is not on PATH"

mkdir -p "$WORK" "$BENCH_BIN"
WORK=$(cd "$WORK" && pwd)
RES=$WORK/results
if [ "${REPORT_ONLY:-0}" != 1 ]; then
	rm -rf "$RES" && mkdir -p "$RES"
fi

# --- binaries ---------------------------------------------------------------
if [ "${REPORT_ONLY:-0}" != 1 ]; then
	echo "bench: building ckptlint and the parse-only floor" >&2
	(cd "$REPO" && go build -o "$WORK/ckptlint" ./cmd/ckptlint &&
		go build -o "$WORK/parseonly" ./internal/benchrepo/parseonly.go)
fi
CONFTEST=$BENCH_BIN/conftest
# `go install` leaves conftest's own version string at "dev"; the module
# version recorded in the binary is the one to check.
if ! go version -m "$CONFTEST" 2>/dev/null | grep -Eq "^[[:space:]]+mod[[:space:]]+github.com/open-policy-agent/conftest[[:space:]]+$CONFTEST_VERSION[[:space:]]"; then
	echo "bench: installing conftest $CONFTEST_VERSION into $BENCH_BIN" >&2
	(cd "$WORK" && GOBIN=$BENCH_BIN GOFLAGS=-mod=mod go install "github.com/open-policy-agent/conftest@$CONFTEST_VERSION") ||
		die "go install github.com/open-policy-agent/conftest@$CONFTEST_VERSION failed"
fi

# The result cache (issue 13 item 1) is used when this ckptlint has it.
CACHE=0
if "$WORK/ckptlint" lint --help 2>/dev/null | grep -q -- '--no-cache'; then
	CACHE=1
fi
COLD=(lint)
if [ "$CACHE" = 1 ]; then COLD=(lint --no-cache); fi

CK=$WORK/ckptlint
CT=("$CONFTEST" test --combine --no-color --policy "$POLICY" .)
CTF=("$CONFTEST" test --no-color --policy "$REPO/bench/conftest/perfile/policy.rego" .)

if [ "${REPORT_ONLY:-0}" != 1 ]; then
# --- trees ------------------------------------------------------------------
gen() { # gen N DIR [SHAPE]
	rm -rf "$2" && mkdir -p "$2"
	(cd "$REPO" && go run ./internal/benchrepo/gen.go -n "$1" -shape "${3:-teams}" "$2")
}
echo "bench: generating $SETS (two shapes), $BIG and 1 config set(s) under $WORK" >&2
gen "$SETS" "$WORK/tree"
# The second shape (benchrepo.WriteMixed): legacy flink-conf.yaml and nested
# config.yaml sets, deeper, with several findings each; measured in JSON,
# the format CI tooling reads.
gen "$SETS" "$WORK/mixed" mixed
gen "$BIG" "$WORK/big"
gen 1 "$WORK/one"

# --- measuring --------------------------------------------------------------
# run CASE DIR CMD...: one whole process in DIR; appends "wall cpu rss_kib"
# to $RES/CASE. Exit codes 0 and 1 (findings) are results; others are not.
run() {
	local name=$1 dir=$2
	shift 2
	local t=$RES/.time rc=0
	(cd "$dir" && "$TIME" -f '%e %U %S %M' -o "$t" "$@" >"$RES/.out" 2>"$RES/.err") || rc=$?
	if [ "$rc" -gt 1 ]; then
		tail -5 "$RES/.err" >&2
		die "$name: $* exited $rc"
	fi
	tail -1 "$t" | awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' >>"$RES/$name"
}

# edit changes one value in one file of DIR (a different value each call);
# FILE defaults to the teams tree's first flink-conf.yaml.
EDITS=0
edit() {
	EDITS=$((EDITS + 1))
	sed -i "s/^execution.checkpointing.interval: .*/execution.checkpointing.interval: $((200 + EDITS)) s/" \
		"$1/${2:-team0/job-0000/conf/flink-conf.yaml}"
}

if [ "$CACHE" = 1 ]; then
	rm -rf "$WORK/cache"
	run prime "$WORK/tree" "$CK" lint --cache-dir "$WORK/cache" # fills the cache for warm and edited
	rm -rf "$WORK/cache-mixed"
	run prime-mixed "$WORK/mixed" "$CK" lint --format json --cache-dir "$WORK/cache-mixed"
	# SARIF computes the fixes' exact edits, so its runs keep an entry of
	# their own (docs/cache.md): primed in a cache directory of its own.
	rm -rf "$WORK/cache-mixed-sarif"
	run prime-mixed-sarif "$WORK/mixed" "$CK" lint --format sarif --cache-dir "$WORK/cache-mixed-sarif"
fi

echo "bench: $RUNS rounds on $SETS sets (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
for i in $(seq "$RUNS"); do
	if [ $((i % 2)) = 1 ]; then
		run cold "$WORK/tree" "$CK" "${COLD[@]}"
		run conftest "$WORK/tree" "${CT[@]}"
	else
		run conftest "$WORK/tree" "${CT[@]}"
		run cold "$WORK/tree" "$CK" "${COLD[@]}"
	fi
	run conftest-file "$WORK/tree" "${CTF[@]}"
	run floor "$WORK/tree" "$WORK/parseonly"
	if [ "$CACHE" = 1 ]; then
		run warm "$WORK/tree" "$CK" lint --cache-dir "$WORK/cache"
		edit "$WORK/tree"
		run edited "$WORK/tree" "$CK" lint --cache-dir "$WORK/cache"
	fi
	run one "$WORK/one" "$CK" "${COLD[@]}"
	run one-conftest "$WORK/one" "${CT[@]}"
	# Every output format CI reads, and the second tree shape.
	run cold-json "$WORK/tree" "$CK" "${COLD[@]}" --format json
	run cold-sarif "$WORK/tree" "$CK" "${COLD[@]}" --format sarif
	if [ $((i % 2)) = 1 ]; then
		run mixed-json "$WORK/mixed" "$CK" "${COLD[@]}" --format json
		run mixed-conftest "$WORK/mixed" "${CT[@]}"
	else
		run mixed-conftest "$WORK/mixed" "${CT[@]}"
		run mixed-json "$WORK/mixed" "$CK" "${COLD[@]}" --format json
	fi
	run mixed-sarif "$WORK/mixed" "$CK" "${COLD[@]}" --format sarif
	if [ "$CACHE" = 1 ]; then
		# Both entries are current before the warm runs; the one edit is then
		# the only change either edited run sees.
		run mixed-warm "$WORK/mixed" "$CK" lint --format json --cache-dir "$WORK/cache-mixed"
		run mixed-sarif-warm "$WORK/mixed" "$CK" lint --format sarif --cache-dir "$WORK/cache-mixed-sarif"
		edit "$WORK/mixed" svc0/env0/job-0000/flink/flink-conf.yaml
		run mixed-edited "$WORK/mixed" "$CK" lint --format json --cache-dir "$WORK/cache-mixed"
		run mixed-sarif-edited "$WORK/mixed" "$CK" lint --format sarif --cache-dir "$WORK/cache-mixed-sarif"
	fi
done
echo "bench: $BIG_RUNS rounds on $BIG sets" >&2
for i in $(seq "$BIG_RUNS"); do
	run big "$WORK/big" "$CK" "${COLD[@]}"
	run big-conftest "$WORK/big" "${CT[@]}"
done
fi # REPORT_ONLY

# --- report -----------------------------------------------------------------
# med CASE FIELD: the median of column FIELD (1 wall, 2 cpu, 3 rss KiB).
med() {
	[ -s "$RES/$1" ] || { echo ""; return; }
	awk -v f="$2" '{ print $f }' "$RES/$1" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# ratio A B FIELD: the median of the per-round ratios A/B of column FIELD.
ratio() {
	{ [ -s "$RES/$1" ] && [ -s "$RES/$2" ]; } || { echo ""; return; }
	paste -d' ' "$RES/$1" "$RES/$2" | awk -v f="$3" 'NF >= 6 && $(f + 3) > 0 { print $f / $(f + 3) }' | sort -g |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
fmt() { # fmt VALUE PRINTF-FORMAT: "n/a" for an empty value
	if [ -z "$1" ]; then echo "n/a"; else awk -v v="$1" -v f="$2" 'BEGIN { printf f, v }'; fi
}
mib() { [ -z "$1" ] && echo "n/a" || awk -v v="$1" 'BEGIN { printf "%.0f", v / 1024 }'; }
NOCACHE="n/a (no cache)"

echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); load now $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ckptlint: $("$CK" version 2>/dev/null | head -1) ($(cd "$REPO" && git describe --always --dirty 2>/dev/null || echo unknown)); $(go version | cut -d' ' -f3-4)"
echo "conftest: $CONFTEST_VERSION ($("$CONFTEST" --version | grep OPA)); ct = test --combine with bench/conftest/policy.rego"
echo "rounds: $RUNS on $SETS sets, $BIG_RUNS on $BIG sets; medians; ratios are medians of per-round ratios"
echo
# The targets are issue 26's (docs/performance.md): wall times are absolute,
# measured on the 2-core CI machine the issue was filed on.
printf '%-38s %8s %8s %8s %10s %10s   %s\n' case "wall s" "CPU s" "RSS MiB" "wall/ct" "CPU/ct" "target (must / aim)"
row() { # row LABEL CASE TARGET
	printf '%-38s %8s %8s %8s %10s %10s   %s\n' "$1" "$(fmt "$(med "$2" 1)" %.3f)" "$(fmt "$(med "$2" 2)" %.2f)" \
		"$(mib "$(med "$2" 3)")" "$(fmt "$(ratio "$2" conftest 1)" %.2fx)" "$(fmt "$(ratio "$2" conftest 2)" %.2fx)" "$3"
}
na() { printf '%-38s %8s %8s %8s %10s %10s   %s\n' "$1" "$NOCACHE" "" "" "" "" "$2"; }
row "conftest --combine, $SETS sets" conftest ""
row "conftest per file, $SETS sets" conftest-file ""
row "ckptlint cold (no cache), $SETS sets" cold "<= 1.0x wall / <= 0.5x"
printf '%-38s %8s %8s %8s %10s %10s\n' "ckptlint cold / conftest per file" "" "" "" \
	"$(fmt "$(ratio cold conftest-file 1)" %.2fx)" "$(fmt "$(ratio cold conftest-file 2)" %.2fx)"
if [ "$CACHE" = 1 ]; then
	row "ckptlint warm (nothing changed)" warm "<= 0.10 s / <= 0.06 s"
	row "ckptlint, one file edited" edited "<= 0.15 s / <= 0.10 s"
else
	na "ckptlint warm (nothing changed)" "<= 0.10 s / <= 0.06 s"
	na "ckptlint, one file edited" "<= 0.15 s / <= 0.10 s"
fi
row "parse-only floor, $SETS sets" floor ""
printf '%-38s %8s %8s %8s %10s %10s   %s\n' "ckptlint cold / parse-only floor" "$(fmt "$(ratio cold floor 1)" %.2fx)" \
	"$(fmt "$(ratio cold floor 2)" %.2fx)" "" "" "" "(issue 13: <= 3x / <= 2x)"
printf '%-38s %8s %8s %8s %10s %10s   %s\n' "ckptlint cold, one set (pre-commit)" "$(fmt "$(med one 1)" %.3f)" \
	"$(fmt "$(med one 2)" %.2f)" "$(mib "$(med one 3)")" "$(fmt "$(ratio one one-conftest 1)" %.2fx)" \
	"$(fmt "$(ratio one one-conftest 2)" %.2fx)" "<= 0.050 s, below conftest / <= 0.025 s"
printf '%-38s %8s %8s %8s\n' "conftest, one set" "$(fmt "$(med one-conftest 1)" %.3f)" \
	"$(fmt "$(med one-conftest 2)" %.2f)" "$(mib "$(med one-conftest 3)")"
printf '%-38s %8s %8s %8s %10s %10s   %s\n' "ckptlint cold, $BIG sets" "$(fmt "$(med big 1)" %.3f)" \
	"$(fmt "$(med big 2)" %.2f)" "$(mib "$(med big 3)")" "$(fmt "$(ratio big big-conftest 1)" %.2fx)" \
	"$(fmt "$(ratio big big-conftest 2)" %.2fx)" "peak RSS <= 150 MiB / <= 100 MiB"
printf '%-38s %8s %8s %8s\n' "conftest, $BIG sets" "$(fmt "$(med big-conftest 1)" %.3f)" \
	"$(fmt "$(med big-conftest 2)" %.2f)" "$(mib "$(med big-conftest 3)")"
echo
echo "every format, and the second tree shape ($SETS mixed sets, several findings each):"
row "ckptlint cold --format json" cold-json "<= 1.0x wall (as text)"
row "ckptlint cold --format sarif" cold-sarif "<= 1.0x wall (as text)"
ratiorow() { # ratiorow LABEL CASE BASE TARGET: ratios against BASE instead of conftest on the teams tree
	printf '%-38s %8s %8s %8s %10s %10s   %s\n' "$1" "$(fmt "$(med "$2" 1)" %.3f)" "$(fmt "$(med "$2" 2)" %.2f)" \
		"$(mib "$(med "$2" 3)")" "$(fmt "$(ratio "$2" "$3" 1)" %.2fx)" "$(fmt "$(ratio "$2" "$3" 2)" %.2fx)" "$4"
}
row "conftest --combine, mixed" mixed-conftest "(ratios: against conftest on the teams tree)"
ratiorow "ckptlint cold json, mixed" mixed-json mixed-conftest "<= 1.0x wall of conftest on this tree"
ratiorow "ckptlint cold sarif, mixed" mixed-sarif mixed-conftest "<= 1.0x wall of conftest on this tree"
if [ "$CACHE" = 1 ]; then
	ratiorow "ckptlint warm json, mixed" mixed-warm mixed-conftest "<= 0.10 s wall"
	ratiorow "ckptlint one edited json, mixed" mixed-edited mixed-conftest "<= 0.15 s wall"
	ratiorow "ckptlint warm sarif, mixed" mixed-sarif-warm mixed-conftest "<= 0.10 s wall"
	ratiorow "ckptlint one edited sarif, mixed" mixed-sarif-edited mixed-conftest "<= 0.15 s wall"
fi
echo
echo "raw runs (wall s, user+sys s, max RSS KiB): $RES"

if [ "${HYPERFINE:-1}" = 1 ] && command -v hyperfine >/dev/null; then
	echo
	echo "hyperfine cross-check ($SETS sets, cold; not paired, no RSS):"
	(cd "$WORK/tree" && hyperfine -N -i --style basic --warmup 1 --runs "$RUNS" \
		-n conftest "${CT[*]}" -n ckptlint-cold "$CK ${COLD[*]}" -n parse-only "$WORK/parseonly")
fi
