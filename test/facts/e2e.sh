#!/usr/bin/env bash
# End to end for `ckptlint facts` (docs/facts.md): a recorded NameNode JMX
# response -> ckptlint facts -> .ckptlint.hcl -> ckptlint lint, on story (a)
# (tiny checkpoint files x the 128 MiB block size, testdata/stories/a-blocksize).
# Before the facts, CKPT101 is an info asking to declare the DataNodes; after,
# it is the story's error with the observed numbers (the worst in-service
# DataNode's 43 GiB free and the 96 blocks already scheduled on the busiest one;
# the decommissioning node with 1 GiB does not count).
#
# usage: CKPTLINT=/path/to/ckptlint test/facts/e2e.sh
set -euo pipefail

ckptlint=${CKPTLINT:-ckptlint}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "e2e: FAIL: $*" >&2; exit 1; }

cd "$work"
mkdir .git # the repository boundary, as a checkout has it
cp -R "$repo/testdata/stories/a-blocksize/flink" flink
cp "$here/testdata/before.hcl" .ckptlint.hcl
cp "$here/testdata/namenode.json" nn.json

echo "== 1. lint without DataNode facts"
set +e
# --fail-level error: story (a) keeps a CKPT605 warning, which the default
# gate (warning) fails on; this step is about the missing DataNode facts.
before=$("$ckptlint" lint --fail-level error .)
code=$?
set -e
printf '%s\n' "$before" | grep 'CKPT101' || true
[ "$code" -eq 0 ] || fail "lint before facts: exit $code, want 0 (no error)"
printf '%s\n' "$before" | grep -q 'info: .*declare datanodes and datanode_free_bytes .*\[CKPT101 blocksize-scheduled-space\]' ||
	fail "lint before facts: no CKPT101 info asking to declare the DataNodes"

echo "== 2. ckptlint facts (dry run, then write)"
"$ckptlint" facts --cluster test --now 2026-12-01T08:00:00Z --dry-run nn.json >diff.txt
grep -q '^+  datanode_free_bytes = 46170898432 # from namenode nn.json, 2026-12-01; least remaining on dn2.example.com:9866' diff.txt ||
	fail "dry run: no datanode_free_bytes line in the diff"
cmp -s .ckptlint.hcl "$here/testdata/before.hcl" || fail "--dry-run changed .ckptlint.hcl"
"$ckptlint" facts --cluster test --now 2026-12-01T08:00:00Z nn.json
grep -E '^  (datanodes|datanode_free_bytes) = ' .ckptlint.hcl
grep -q '^  datanodes = 3 # from namenode nn.json' .ckptlint.hcl || fail "datanodes is not the 3 in-service DataNodes"

echo "== 3. lint with the observed facts"
set +e
after=$("$ckptlint" lint .)
code=$?
set -e
printf '%s\n' "$after" | grep 'CKPT101' || true
[ "$code" -eq 1 ] || fail "lint after facts: exit $code, want 1 (an error)"
printf '%s\n' "$after" | grep -q 'error: .*\[CKPT101 blocksize-scheduled-space' &&
	printf '%s\n' "$after" | grep -q '^    dfs.blocksize 128 MiB (from the Hadoop default) lets each DataNode schedule only 344 blocks at once (43 GiB free / 128 MiB - 1); checkpoints keep about 480 files in flight per DataNode .*including 96 blocks already scheduled on the busiest DataNode, datanode_blocks_scheduled.*observed: datanodes, datanode_free_bytes, datanode_blocks_scheduled: facts from namenode nn.json, 2026-12-01' ||
	fail "lint after facts: no CKPT101 error with the observed 43 GiB"
if printf '%s\n' "$after" | grep -q 'declare datanodes and datanode_free_bytes'; then
	fail "lint after facts still asks to declare the DataNodes"
fi
echo "e2e: ok"
