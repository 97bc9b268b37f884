package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/safetext"
)

func newPolicyCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Work with your own Rego policies (see docs/custom-policies.md)",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErr(fmt.Errorf("unknown command %q for \"ckptlint policy\"; the subcommand is: test", args[0]))
			}
			return cmd.Help()
		},
	}
	cmd.AddCommand(newPolicyTestCmd(g))
	return cmd
}

type policyTestParams struct {
	verbose bool
	run     string
	timeout time.Duration
}

func newPolicyTestCmd(g *globals) *cobra.Command {
	p := &policyTestParams{}
	cmd := &cobra.Command{
		Use:   "test [dirs...]",
		Short: "Run the Rego unit tests (*_test.rego) of your policy directories",
		Long: `policy test runs the Rego unit tests (rules named test_* in *_test.rego files) of
user policy directories with OPA's tester, under the restrictions lint applies:
the same builtins (no http.send, no net.* lookups, no opa.runtime, no remote
schema references), the embedded data.ckptlint.lib helpers, builtin errors
raised as errors, and a deadline per test. The policies must first pass the
policy contract lint checks. Tests of the embedded rules are not run.

The directories are the arguments and --policy flags; with no argument, the
--policy flags and the policy_dirs of .ckptlint.hcl (what lint loads).

Exit codes: 0 every test passed; 1 a test failed or raised an error, or no test
ran; 2 a policy breaks the contract or does not parse or compile (file:line),
or a usage error.`,
		Example: `  ckptlint policy test policies/custom
  ckptlint policy test -v --run checkpoint_root
  ckptlint policy test            # the policy_dirs of .ckptlint.hcl`,
		RunE: func(cmd *cobra.Command, args []string) error { return runPolicyTest(cmd, g, p, args) },
	}
	f := cmd.Flags()
	f.BoolVarP(&p.verbose, "verbose", "v", false, "list passing tests too, with durations and print() output")
	f.StringVarP(&p.run, "run", "r", "", "run only tests whose name (data.<package>.<test>) matches this regular expression")
	f.DurationVar(&p.timeout, "timeout", engine.DefaultTestTimeout, "deadline for each test")
	return cmd
}

func runPolicyTest(cmd *cobra.Command, g *globals, p *policyTestParams, args []string) error {
	if p.timeout <= 0 {
		return usageErr(fmt.Errorf("--timeout must be positive, got %s", p.timeout))
	}
	dirs := append(append([]string(nil), args...), g.policyDirs...)
	if len(args) == 0 {
		cdirs, err := g.configPolicyDirs()
		if err != nil {
			return err
		}
		dirs = append(dirs, cdirs...)
	}
	if len(dirs) == 0 {
		return usageErr(errors.New("no policy directory to test: name one (ckptlint policy test DIR), pass --policy DIR, or set policy_dirs in .ckptlint.hcl"))
	}
	rs, err := engine.RunTests(cmd.Context(), engine.TestOptions{PolicyDirs: dirs, Run: p.run, Timeout: p.timeout})
	if err != nil {
		return usageErr(err)
	}
	if err := writeTestResults(g.stdout, rs, p.verbose); err != nil {
		return &exitError{code: exitInternal, err: fmt.Errorf("write test results: %w", err)}
	}
	var bad, ran int
	for _, r := range rs {
		if r.Outcome != engine.Skip {
			ran++
		}
		if r.Outcome == engine.Fail || r.Outcome == engine.Error {
			bad++
		}
	}
	switch {
	case ran == 0 && p.run != "":
		return &exitError{code: exitFindings, err: fmt.Errorf("no test matches --run %q in %s", p.run, strings.Join(dirs, ", "))}
	case ran == 0:
		return &exitError{code: exitFindings, err: fmt.Errorf("no Rego test ran: %s hold no test_* rules in *_test.rego files", strings.Join(dirs, ", "))}
	case bad > 0:
		return &exitError{code: exitFindings, err: fmt.Errorf("%d of %d policy tests did not pass", bad, ran)}
	}
	return nil
}

// configPolicyDirs are the policy_dirs of .ckptlint.hcl (--config, else the
// nearest one), resolved against the file's directory; none without a file.
func (g *globals) configPolicyDirs() ([]string, error) {
	cfg, _, err := g.loadConfig()
	if err != nil || cfg == nil {
		return nil, err
	}
	var dirs []string
	for _, d := range cfg.PolicyDirs {
		dirs = append(dirs, cfg.Resolve(d))
	}
	return dirs, nil
}

// writeTestResults prints one line per test that did not pass (every test
// with verbose), `file:line: OUTCOME data.pkg.test`, its details indented
// below, then the tally the way `opa test` prints it.
func writeTestResults(out io.Writer, rs []engine.TestResult, verbose bool) error {
	w := bufio.NewWriter(out)
	var count [4]int
	dirty := false
	for _, r := range rs {
		count[r.Outcome]++
		if r.Outcome == engine.Pass && !verbose {
			continue
		}
		dirty = true
		// A policy's names, messages and prints are text from its files:
		// shown with visible escapes, a line at a time.
		line := fmt.Sprintf("%s:%d: %s %s", safetext.Path(r.File), r.Line, r.Outcome, safetext.Text(r.Name))
		if verbose && r.Outcome != engine.Skip {
			line += fmt.Sprintf(" (%s)", r.Duration.Round(time.Microsecond))
		}
		fmt.Fprintln(w, line)
		switch r.Outcome {
		case engine.Fail:
			if r.Message != "" {
				fmt.Fprintf(w, "    %s\n", safetext.Text(r.Message))
			}
			if r.FailedAt != "" {
				fmt.Fprintf(w, "    false: %s\n", safetext.Text(r.FailedAt))
			}
		case engine.Error:
			fmt.Fprintf(w, "    error: %s\n", strings.ReplaceAll(shownLines(r.Message), "\n", "\n    "))
		}
		if out := strings.TrimRight(string(r.Output), "\n"); out != "" && (verbose || r.Outcome != engine.Pass) {
			fmt.Fprintf(w, "    print: %s\n", strings.ReplaceAll(shownLines(out), "\n", "\n    print: "))
		}
	}
	total := len(rs)
	if dirty {
		fmt.Fprintln(w, strings.Repeat("-", 80))
	}
	for _, o := range []engine.Outcome{engine.Pass, engine.Fail, engine.Error, engine.Skip} {
		if count[o] > 0 {
			fmt.Fprintf(w, "%s: %d/%d\n", o, count[o], total)
		}
	}
	return w.Flush()
}
