// Package pipeline tests how ckptlint is used in pipelines, end to end and
// with the real tools: the GitHub Action (action.yml, its run steps executed
// in a simulated runner, and the documented workflow checked with
// actionlint), the pre-commit hooks (.pre-commit-hooks.yaml, run by the real
// pre-commit through try-repo) and the deploy script docs/examples/deploy.sh.
//
// The package has no code of its own: everything is in its tests. Tests that
// need a tool that is not installed (pre-commit, shellcheck) skip with a
// message, except under CI=true, where .ci/run installs them and a missing
// tool fails the test.
package pipeline
