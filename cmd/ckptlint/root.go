package main

import (
	"context"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/internal/cache"
	"github.com/ckptlint/ckptlint/internal/safetext"
)

// globals are the flags every subcommand shares.
type globals struct {
	configPath    string
	flinkVersion  string
	hadoopVersion string
	policyDirs    []string
	placeholders  string
	cacheDir      string
	noCache       bool
	noted         map[string]bool
	stdout        io.Writer
	stderr        io.Writer
	stdin         io.Reader
}

// run is the whole program: it returns the process exit code.
//
// Standard error is written through safetext's line guard: whatever a note
// or an error quotes (a file name, a value, an HTTP body, a panic), no
// escape sequence, bidirectional override or workflow command reaches the
// terminal or the CI log as it is (docs/security.md, "Sanitised
// streams"). Each site also shows its names and values on one line
// (safetext.Path, safetext.Text); the guard is the net under them.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderrRaw io.Writer) (code int) {
	stderr := safetext.NewWriter(stderrRaw)
	defer func() { _ = stderr.Flush() }()
	defer func() {
		if r := recover(); r != nil {
			internalError(stderr, r, debug.Stack())
			code = exitInternal
		}
	}()
	g := &globals{stdout: stdout, stderr: stderr, stdin: stdin}
	root := newRoot(g)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return codeOf(root.ExecuteContext(ctx), stderr)
}

func newRoot(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "ckptlint",
		Short: "Lint Flink + HDFS configuration for checkpoint failures before they reach production",
		Long: `ckptlint reads flink-conf.yaml / config.yaml / FlinkDeployment manifests together with the
core-site.xml and hdfs-site.xml Flink's HDFS client loads, and reports the settings that make
checkpoints fail on HDFS, with the numbers that show why.

Exit codes: 0 clean, 1 findings at or above --fail-level, 2 usage/config/input error, 3 internal error.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version prints what `ckptlint version` does.
		Version: buildinfo.Get().Version,
	}
	root.SetVersionTemplate(buildinfo.Get().String())
	pf := root.PersistentFlags()
	pf.StringVar(&g.configPath, "config", "", "path to .ckptlint.hcl (default: .ckptlint.hcl in the current directory or the nearest parent up to the repository root)")
	pf.StringVar(&g.flinkVersion, "flink-version", "", "Flink version the configuration runs on, e.g. 1.20 (overrides .ckptlint.hcl)")
	pf.StringVar(&g.hadoopVersion, "hadoop-version", "", "Hadoop version of the HDFS cluster, e.g. 3.1.0 (overrides .ckptlint.hcl)")
	pf.StringArrayVar(&g.policyDirs, "policy", nil, "extra Rego policy directory (repeatable)")
	pf.StringVar(&g.placeholders, "placeholders", "", "template placeholders (${VAR}, {{ .Values.x }}, ...): detect (unknown values, the default) or literal (lint rendered output); overrides .ckptlint.hcl")
	pf.StringVar(&g.cacheDir, "cache-dir", "", "directory of the result cache (default: $"+cache.EnvDir+", else ckptlint under the user cache directory, e.g. ~/.cache/ckptlint); see docs/cache.md")
	pf.BoolVar(&g.noCache, "no-cache", false, "lint without the result cache: neither read nor write it")
	root.AddCommand(newLintCmd(g), newFixCmd(g), newGenerateCmd(g), newInspectCmd(g), newRulesCmd(g), newExplainCmd(g),
		newPolicyCmd(g), newVersionCmd(g), newInitCmd(g), newFactsCmd(g))
	registerCompletions(root, g)
	return root
}
