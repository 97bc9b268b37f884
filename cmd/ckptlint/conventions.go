package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckptlint/ckptlint/internal/deploy/render"
	"github.com/ckptlint/ckptlint/internal/deploy/scan"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/report"
	"github.com/ckptlint/ckptlint/lint"
)

// useColor decides whether text on standard output is coloured (with the
// source snippet under each finding). In order: --color always|never; then
// NO_COLOR (https://no-color.org: set and not empty turns colour off); then
// FORCE_COLOR or CLICOLOR_FORCE (https://bixense.com/clicolors: set and not
// "0" turns it on even when standard output is not a terminal, e.g. in a CI
// log); else colour only on a terminal.
func useColor(flag string, tty bool, getenv func(string) string) (bool, error) {
	switch flag {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
	default:
		return false, fmt.Errorf("--color: %q is not auto, always or never", flag)
	}
	if getenv("NO_COLOR") != "" {
		return false, nil
	}
	for _, k := range []string{"FORCE_COLOR", "CLICOLOR_FORCE"} {
		if v := getenv(k); v != "" && v != "0" && !strings.EqualFold(v, "false") {
			return true, nil
		}
	}
	return tty, nil
}

// stdinPaths handles `ckptlint lint -`: standard input is read (up to the
// size any configuration file may have) and linted as if it were the file
// name given with --stdin-filename. The file is linted exactly as
// `ckptlint lint NAME` would lint it if it held standard input: with the
// configuration files beside NAME on disk (its config set), and NAME need
// not exist. Without --stdin-filename, standard input must be the output
// of `helm template` (documents with its `# Source:` comments): it is read
// as the rendered manifests it is, named "-" (scan.HelmStdin; findings at
// the templates its comments name when they are on disk). It returns the
// paths to lint and the overlay to lint them with.
func stdinPaths(args []string, name string, stdin io.Reader) ([]string, map[string][]byte, error) {
	dash := 0
	for _, a := range args {
		if a == "-" {
			dash++
		}
	}
	switch {
	case dash == 0 && name == "":
		return args, nil, nil
	case dash == 0:
		return nil, nil, errors.New("--stdin-filename is only read with the path - (standard input): ckptlint lint --stdin-filename NAME -")
	case len(args) != 1:
		return nil, nil, errors.New("- (standard input) must be the only path")
	}
	src, err := io.ReadAll(io.LimitReader(stdin, parsed.MaxFileSize+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read standard input: %w", err)
	}
	if len(src) > parsed.MaxFileSize {
		return nil, nil, fmt.Errorf("standard input (%s): larger than %d bytes", cmp.Or(name, "-"), parsed.MaxFileSize)
	}
	if name == "" {
		if _, ok := render.SplitHelmOutput(src); !ok {
			return nil, nil, errors.New("- (standard input) needs --stdin-filename NAME: the file name tells its format (flink-conf.yaml, config.yaml, hdfs-site.xml, ...) and its config set; " +
				"only the output of helm template (with its # Source: comments) is recognised without it")
		}
		name = scan.HelmStdin
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, nil, fmt.Errorf("--stdin-filename %s: %w", name, err)
	}
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return nil, nil, fmt.Errorf("--stdin-filename %s: a directory; name the file standard input stands for", name)
	}
	return []string{name}, map[string][]byte{abs: src}, nil
}

// warnNoFiles says on standard error that nothing was linted. It is not an
// error: the exit code stays 0, as for a clean run (docs/output.md).
func warnNoFiles(w io.Writer, res *lint.Result, args []string) {
	if res.Files > 0 {
		return
	}
	where := "."
	if len(args) > 0 {
		where = strings.Join(args, " ")
	}
	fmt.Fprintf(w, "ckptlint: warning: no Flink or Hadoop configuration file found under %s "+
		"(flink-conf.yaml, config.yaml with Flink keys, a FlinkDeployment manifest, core-site.xml, hdfs-site.xml); nothing was linted\n", where)
}

// Shell completion (`ckptlint completion bash|zsh|fish|powershell`, cobra's
// own command): flag values and rule ids.

var (
	failLevels = []string{"error", "warning", "info"}
	colorModes = []string{"auto", "always", "never"}
)

func fixedCompletion(values ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
}

// completeFormats offers the format names, and after NAME= a file.
func completeFormats(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if strings.Contains(toComplete, "=") {
		return nil, cobra.ShellCompDirectiveDefault
	}
	var out []cobra.Completion
	for _, f := range report.Formats {
		out = append(out, f, f+"=")
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// completeRuleIDs offers the rule ids with their titles, the embedded rules
// and those of --policy directories.
func completeRuleIDs(g *globals) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		g.stderr = io.Discard // a broken .ckptlint.hcl must not print into the shell
		_, rules, err := g.setupRules(cmd.Context())
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		var out []cobra.Completion
		for _, r := range rules {
			out = append(out, cobra.CompletionWithDesc(r.ID, r.Name))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeRuleFlag offers the rule ids as values of a rule flag.
func completeRuleFlag(g *globals) cobra.CompletionFunc {
	ids := completeRuleIDs(g)
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return ids(cmd, nil, toComplete)
	}
}

// registerCompletions attaches the completions to the flags that exist:
// each command's own flags, and root's persistent ones once.
func registerCompletions(root *cobra.Command, g *globals) {
	funcs := map[string]cobra.CompletionFunc{
		"format":         completeFormats,
		"fail-level":     fixedCompletion(failLevels...),
		"color":          fixedCompletion(colorModes...),
		"show-level":     fixedCompletion(failLevels...),
		"flink-version":  cobra.NoFileCompletions,
		"hadoop-version": cobra.NoFileCompletions,
		"enable-rule":    completeRuleFlag(g),
		"disable-rule":   completeRuleFlag(g),
		"only-rule":      completeRuleFlag(g),
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		flags := c.LocalNonPersistentFlags()
		if c == root {
			flags = c.PersistentFlags()
		}
		for name, fn := range funcs {
			if flags.Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, fn)
			}
		}
		if c.Name() == "explain" {
			c.ValidArgsFunction = completeRuleIDs(g)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
