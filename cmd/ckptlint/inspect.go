package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/spf13/cobra"

	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/safetext"
	"github.com/ckptlint/ckptlint/lint"
)

func newInspectCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "inspect [paths...]",
		Short: "Print the Rego input document of each config set under paths",
		Long: `inspect prints, for each config set, the exact input document the policies see:
raw keys as Flink and Hadoop read them, effective typed values with their sources,
the versions (and where they came from) and the cluster facts of .ckptlint.hcl.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, _, err := g.setup(cmd.Context())
			if err != nil {
				return err
			}
			sets, _, err := lint.Discover(args, g.options(cfg))
			if err != nil {
				return usageErr(err)
			}
			if len(sets) == 0 {
				return usageErr(fmt.Errorf("no Flink or Hadoop configuration found under %v", args))
			}
			docs := make([]any, 0, len(sets))
			for _, s := range sets {
				v, err := model.Input(s)
				if err != nil {
					return fmt.Errorf("%s: build input: %w", s.Name, err)
				}
				doc, err := ast.JSON(v)
				if err != nil {
					return fmt.Errorf("%s: build input: %w", s.Name, err)
				}
				docs = append(docs, doc)
			}
			if len(docs) == 1 {
				return writeJSON(g.stdout, docs[0])
			}
			return writeJSON(g.stdout, docs)
		},
	}
}

// writeJSON prints v as indented JSON through safetext's JSON guard: the
// same data, with nothing a terminal or a CI log acts on (a file name in
// an input document is text from the repository).
func writeJSON(w io.Writer, v any) error {
	g := safetext.NewJSONWriter(w)
	enc := json.NewEncoder(g)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return g.Flush()
}
