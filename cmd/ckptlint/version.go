package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ckptlint/ckptlint/internal/buildinfo"
)

func newVersionCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the ckptlint version, commit, build date, Go version and platform",
		Long: `Print the version identity of this binary. Release builds carry the version, commit and
build date they were stamped with; a binary from go install …@vX knows its module version; a
build in a git checkout knows its commit. The documentation links in reports (SARIF helpUri,
JSON doc_url) point at the docs of the same version: the release tag, or the main branch for a
development build.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in := buildinfo.Get()
			if asJSON {
				b, err := json.MarshalIndent(in, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintf(g.stdout, "%s\n", b)
				return nil
			}
			fmt.Fprint(g.stdout, in.String())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version identity as a JSON object")
	return cmd
}
