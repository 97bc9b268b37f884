package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ckptlint/ckptlint/lint/engine"
)

func newRulesCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List the rules with id, name, severity and title",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := engine.New(cmd.Context(), engine.Options{PolicyDirs: g.policyDirs})
			if err != nil {
				return usageErr(err)
			}
			if asJSON {
				return writeJSON(g.stdout, eng.Rules())
			}
			tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tFIX\tTITLE")
			for _, r := range eng.Rules() {
				fix := ""
				if r.Fixable {
					fix = "yes"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, fix, r.Title)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the rule metadata as JSON")
	return cmd
}

func newExplainCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "explain RULE",
		Short: "Print a rule's documentation: mechanism, numbers, fix and sources",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := engine.New(cmd.Context(), engine.Options{PolicyDirs: g.policyDirs})
			if err != nil {
				return usageErr(err)
			}
			id := strings.ToUpper(args[0])
			for _, r := range eng.Rules() {
				if r.ID == id || r.Name == args[0] {
					fmt.Fprint(g.stdout, explainText(r))
					return nil
				}
			}
			return usageErr(fmt.Errorf("no rule %q; `ckptlint rules` lists them", args[0]))
		},
	}
}

// explainText renders a rule's documentation as plain text.
func explainText(r *engine.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s", r.ID, r.Name, r.Severity)
	if r.Fixable {
		b.WriteString(", fixable")
	}
	fmt.Fprintf(&b, ")\n%s\n\n%s\n", r.Title, strings.TrimSpace(r.Description))
	if len(r.Related) > 0 {
		b.WriteString("\nSources:\n")
		for _, u := range r.Related {
			fmt.Fprintf(&b, "  %s\n", u)
		}
	}
	return b.String()
}
