#!/usr/bin/env bash
# Measures wall and CPU time (user + system; wall time on a shared machine
# mostly measures the load), peak memory (max RSS) and output size of ckptlint on the
# hostile inputs of issues 9 and 25 that are about cost. Not a test: it asserts
# nothing and its numbers depend on the machine; docs/security.md quotes
# them. The hostile-input tests themselves (outcome, exit code, nothing
# written, nothing outside read) are cmd/ckptlint/testdata/script/hostile_*.txtar.
#
#   test/hostile/measure.sh            # all cases
#   test/hostile/measure.sh flink15    # one case
#   CKPTLINT_BIN=/tmp/old/ckptlint test/hostile/measure.sh attrs40k
#                                      # another build (the code before a change)
#   MEASURE_TIMEOUT=150 ...            # stop a case after 150 s (its line says so)
#
# Needs GNU time (/usr/bin/time -v, Debian package "time") and python3 to
# generate the inputs.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/usr/local/go/bin:$PATH"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${CKPTLINT_BIN:-}
if [ -z "$bin" ]; then
  bin="$work/ckptlint"
  go build -o "$bin" ./cmd/ckptlint
fi
limit=()
[ -n "${MEASURE_TIMEOUT:-}" ] && limit=(timeout "$MEASURE_TIMEOUT")

# gen DIR PYTHON: runs PYTHON in a fresh repository DIR under $work.
gen() {
  mkdir -p "$work/$1/.git"
  (cd "$work/$1" && python3 -c "$2")
}

# measure NAME [ckptlint args...]: runs ckptlint lint in $work/NAME.
measure() {
  local name=$1
  shift
  run "$name" lint "$@"
}

# run NAME ckptlint-args...: runs ckptlint with those arguments in $work/NAME.
run() {
  local name=$1
  shift
  local out="$work/$name.out" tv="$work/$name.time"
  local code=0
  (cd "$work/$name" && /usr/bin/time -v -o "$tv" "${limit[@]}" "$bin" "$@" >"$out" 2>"$work/$name.err") || code=$?
  [ "$code" = 124 ] && echo "$name: stopped after $MEASURE_TIMEOUT s (MEASURE_TIMEOUT)"
  local wall cpu rss input
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tv")
  cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$tv")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tv")
  input=$(du -sb --exclude=.git "$work/$name" | cut -f1)
  printf '%-10s input %9d B  exit %d  wall %8s  cpu %6s s  max RSS %7d KB (%5.1fx input)  output %8d B\n' \
    "$name" "$input" "$code" "$wall" "$cpu" "$rss" "$(echo "$rss * 1024 / $input" | bc -l)" "$(wc -c <"$out")"
}

cases=(flink15 values15 xml15 yaml15 flowdeep six15 hcl13 hcldeep echo10
  attrs40k attrs200k manifest1000 aliases20k sets20k sets20ksarif sets40k log500)
[ $# -gt 0 ] && cases=("$@")

for c in "${cases[@]}"; do
  case $c in
  flink15) # 15 MB flink-conf.yaml of ~500,000 short keys (was 10 s, 1.14 GB)
    gen "$c" "
with open('flink-conf.yaml', 'w') as f:
    i = 0
    while f.tell() < 15 << 20:
        f.write('key.number.%d: value-%d\n' % (i, i)); i += 1"
    measure "$c" ;;
  values15) # 15 MB flink-conf.yaml of 9,000 keys with long values: read in full
    gen "$c" "
with open('flink-conf.yaml', 'w') as f:
    for i in range(9000):
        f.write('key.number.%d: %s\n' % (i, 'v' * 1720))"
    measure "$c" ;;
  xml15) # 15 MB hdfs-site.xml, ~280,000 properties on one line
    gen "$c" "
with open('hdfs-site.xml', 'w') as f:
    f.write('<configuration>'); i = 0
    while f.tell() < 15 << 20:
        f.write('<property><name>k%d</name><value>v</value></property>' % i); i += 1
    f.write('</configuration>\n')"
    measure "$c" ;;
  yaml15) # 15 MB config.yaml, one flow mapping of ~1.3 million keys
    gen "$c" "
with open('config.yaml', 'w') as f:
    f.write('execution.checkpointing.interval: 1 min\nx: {'); i = 0
    while f.tell() < 15 << 20:
        f.write('k%d: v, ' % i); i += 1
    f.write('z: 1}\n')"
    measure "$c" ;;
  flowdeep) # 165 KB config.yaml, flow mappings nested 9,000 deep (was 10 s, 745 MB)
    gen "$c" "
n = 9000
open('config.yaml', 'w').write('execution.checkpointing.interval: 1 min\nx: ' + ''.join('{a%d: 1, b%d: ' % (i, i) for i in range(n)) + '1' + '}' * n + '\n')"
    measure "$c" ;;
  six15) # six 15 MB flink-conf.yaml of long values (was over 5 GB): the 64 MiB run budget
    gen "$c" "
import os
for d in range(6):
    os.makedirs('s%d' % d)
    with open('s%d/flink-conf.yaml' % d, 'w') as f:
        for i in range(9000):
            f.write('key.number.%d: %s\n' % (i, 'v' * 1720))"
    measure "$c" ;;
  hcl13) # 12.7 MB .ckptlint.hcl (was 1.6 GB, no cap)
    gen "$c" "
with open('.ckptlint.hcl', 'w') as f:
    i = 0
    while f.tell() < 12700000:
        f.write('rule \"CKPT%d\" {\n  enabled = true\n}\n' % (i % 1000)); i += 1
open('flink-conf.yaml', 'w').write('execution.checkpointing.interval: 1 min\n')"
    measure "$c" ;;
  hcldeep) # .ckptlint.hcl with 100,000 nested '[' (was a fatal stack overflow)
    gen "$c" "open('.ckptlint.hcl', 'w').write('x = ' + '[' * 100000)"
    measure "$c" ;;
  echo10) # a 10 MB value echoed in findings (was 20-30 MB of output)
    gen "$c" "open('flink-conf.yaml', 'w').write('execution.checkpointing.interval: 1 min\nexecution.checkpointing.timeout: ' + 'x' * (10 << 20) + '\n')"
    measure "$c" --format json ;;
  attrs40k | attrs200k) # issue 25: 40,000 (22-39 s) or 200,000 (2.2 MB, past 120 s) xmlns attributes on <configuration>
    n=${c#attrs}; n=${n%k}000
    gen "$c" "
open('hdfs-site.xml', 'w').write('<configuration' + ''.join(' xmlns:p%d=\"u\"' % i for i in range($n)) + '>\n<property><name>dfs.blocksize</name><value>1m</value></property>\n</configuration>\n')"
    measure "$c" ;;
  manifest1000) # issue 25: 1,000 FlinkDeployments in one file (54-68 s)
    gen "$c" "
with open('deployments.yaml', 'w') as f:
    for i in range(1000):
        f.write('---\napiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: job-%d\nspec:\n  flinkVersion: v1_18\n  flinkConfiguration:\n    execution.checkpointing.interval: 1 min\n    state.checkpoints.dir: hdfs://nn:8020/ck/%d\n' % (i, i))"
    measure "$c" ;;
  aliases20k) # issue 25: a 100 KB scalar named by 20,000 aliases, a 200 KB config.yaml (past 3.9 GB and 120 s)
    gen "$c" "
open('config.yaml', 'w').write('execution.checkpointing.interval: 1 min\nbig: &b ' + 'x' * 100000 + '\nlist:\n' + '- *b\n' * 20000)"
    measure "$c" ;;
  sets20k | sets20ksarif | sets40k) # issue 25: 20,000 one-line config sets (the cap, lint.MaxSets), or 40,000 (175 s, 1.12 GB with SARIF)
    n=${c#sets}; n=${n%%k*}000
    gen "$c" "
import os
for i in range($n):
    os.makedirs('s%05d' % i)
    open('s%05d/flink-conf.yaml' % i, 'w').write('execution.checkpointing.interval: 1 min\n')"
    case $c in
    sets20ksarif) measure "$c" --no-cache --format sarif ;;
    *) measure "$c" --no-cache ;;
    esac ;;
  log500) # issue 25: explain --log on a 500 MB log whose every line matches (a 984 MB one used 1.27 GB)
    gen "$c" "
line = b'2026-12-01 10:00:00 WARN CheckpointCoordinator - Checkpoint 7 of job 0f1e2d3c4b5a69788796a5b4c3d2e1f0 expired before completing.\n'
with open('taskmanager.log', 'wb') as f:
    for _ in range(500 * 1000 * 1000 // (len(line) * 10000)):
        f.write(line * 10000)"
    run "$c" explain --log taskmanager.log ;;
  *)
    echo "unknown case $c (one of ${cases[*]})" >&2
    exit 2 ;;
  esac
done
