#!/usr/bin/env bash
# Measures wall and CPU time (user + system; wall time on a shared machine
# mostly measures the load), peak memory (max RSS) and output size of ckptlint on the
# hostile inputs of issue 9 that are about cost. Not a test: it asserts
# nothing and its numbers depend on the machine; docs/security.md quotes
# them. The hostile-input tests themselves (outcome, exit code, nothing
# written, nothing outside read) are cmd/ckptlint/testdata/script/hostile_*.txtar.
#
#   test/hostile/measure.sh            # all cases
#   test/hostile/measure.sh flink15    # one case
#
# Needs GNU time (/usr/bin/time -v, Debian package "time") and python3 to
# generate the inputs.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/usr/local/go/bin:$PATH"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$work/ckptlint"
go build -o "$bin" ./cmd/ckptlint

# gen DIR PYTHON: runs PYTHON in a fresh repository DIR under $work.
gen() {
  mkdir -p "$work/$1/.git"
  (cd "$work/$1" && python3 -c "$2")
}

# measure NAME [ckptlint args...]: runs ckptlint lint in $work/NAME.
measure() {
  local name=$1
  shift
  local out="$work/$name.out" tv="$work/$name.time"
  local code=0
  (cd "$work/$name" && /usr/bin/time -v -o "$tv" "$bin" lint "$@" >"$out" 2>"$work/$name.err") || code=$?
  local wall cpu rss input
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tv")
  cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$tv")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tv")
  input=$(du -sb --exclude=.git "$work/$name" | cut -f1)
  printf '%-10s input %9d B  exit %d  wall %8s  cpu %6s s  max RSS %7d KB (%5.1fx input)  output %8d B\n' \
    "$name" "$input" "$code" "$wall" "$cpu" "$rss" "$(echo "$rss * 1024 / $input" | bc -l)" "$(wc -c <"$out")"
}

cases=(flink15 values15 xml15 yaml15 flowdeep six15 hcl13 hcldeep echo10)
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
  *)
    echo "unknown case $c (one of ${cases[*]})" >&2
    exit 2 ;;
  esac
done
