package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckptlint/ckptlint/generate"
	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/safetext"
	"github.com/ckptlint/ckptlint/write"
)

type generateParams struct {
	cluster    string
	deployment string
	out        string
	force      bool
}

func newGenerateCmd(g *globals) *cobra.Command {
	p := &generateParams{}
	cmd := &cobra.Command{
		Use:   "generate --out DIR [--cluster NAME] [--deployment NAME]",
		Short: "Write a starter Flink + HDFS config set sized for a cluster declared in .ckptlint.hcl",
		Long: `generate writes a complete starter config set for the Flink and Hadoop versions of a cluster block of
.ckptlint.hcl (and, optionally, a deployment block): the Flink configuration in the file the
Flink version reads (flink-conf.yaml up to 1.18, config.yaml from 1.19), the hdfs-site.xml
for Flink's HDFS client (dfs.blocksize sized from the DataNodes' free space and the expected
checkpoint files) and datanode/hdfs-site.xml, properties to merge into the DataNodes'
hdfs-site.xml. Every value carries a comment saying why. The files lint clean with the same
.ckptlint.hcl once a deployment block points at them.

Versions come from --flink-version / --hadoop-version, then .ckptlint.hcl; when none is
declared the latest supported release is used, with a note. Existing files are not
overwritten unless --force; either every file is written or none. See docs/generate.md.`,
		Example: `  ckptlint generate --cluster prod --out conf/
  ckptlint generate --cluster prod --deployment etl --flink-version 1.20 --out jobs/etl/conf`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runGenerate(cmd, g, p) },
	}
	f := cmd.Flags()
	f.StringVar(&p.cluster, "cluster", "", "cluster block of .ckptlint.hcl to size for (default: the deployment's, or the only one)")
	f.StringVar(&p.deployment, "deployment", "", "deployment block of .ckptlint.hcl with jobs, operators and parallelism")
	f.StringVarP(&p.out, "out", "o", "", "directory to write the files into (created if missing; required)")
	f.BoolVar(&p.force, "force", false, "overwrite files that already exist")
	return cmd
}

func runGenerate(cmd *cobra.Command, g *globals, p *generateParams) error {
	if p.out == "" {
		return usageErr(errors.New("generate: --out DIR is required"))
	}
	cfg, _, err := g.setup(cmd.Context())
	if err != nil {
		return err
	}
	if cfg == nil {
		return usageErr(errors.New("generate: no .ckptlint.hcl found (use --config): generate needs a cluster block to size the configuration for; see docs/config.md"))
	}
	b, err := generate.NewStarter(generate.StarterOptions{
		Config: cfg, Cluster: p.cluster, Deployment: p.deployment,
		FlinkVersion: g.flinkVersion, HadoopVersion: g.hadoopVersion,
	})
	if err != nil {
		return usageErr(fmt.Errorf("generate: %w", err))
	}
	out, err := filepath.Abs(p.out)
	if err != nil {
		return usageErr(err)
	}
	changes, err := plannedChanges(b, out, p.force)
	if err != nil {
		return usageErr(err)
	}
	// The writer creates the missing directories below out (and removes
	// them again if the write fails), never through a symlink that leads
	// out of the repository.
	if err := write.All(changes, out); err != nil {
		return usageErr(err)
	}
	writeGenerateSummary(g, cfg, b, changes, out)
	return nil
}

// plannedChanges are the starter config set's files under out; an existing file is
// refused unless force, and then replaced only if unchanged until written.
func plannedChanges(b *generate.Starter, out string, force bool) ([]write.Change, error) {
	var changes []write.Change
	var exist []string
	for _, f := range b.Files {
		path := filepath.Join(out, filepath.FromSlash(f.Path))
		c := write.Change{Path: path, New: f.Content, Mode: 0o644}
		st, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("generate: %w", err)
		case !force:
			exist = append(exist, displayPath(path))
		case st.Mode().IsRegular() || st.Mode()&fs.ModeSymlink != 0:
			if c.Old, err = os.ReadFile(path); err != nil {
				return nil, fmt.Errorf("generate: %w", err)
			}
			c.Mode = st.Mode().Perm()
		default:
			return nil, fmt.Errorf("generate: %s exists and is not a regular file (no file was written)", displayPath(path))
		}
		changes = append(changes, c)
	}
	if len(exist) > 0 {
		return nil, fmt.Errorf("generate: refusing to overwrite %s (use --force; no file was written)", strings.Join(exist, ", "))
	}
	return changes, nil
}

// displayPath renders p relative to the working directory when below it.
func displayPath(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}

// writeGenerateSummary says what was written, the notes to act on, and how
// to lint the files with the same facts.
func writeGenerateSummary(g *globals, cfg *config.Config, b *generate.Starter, changes []write.Change, out string) {
	what := fmt.Sprintf("cluster %q", b.Cluster)
	if b.Deployment != "" {
		what += fmt.Sprintf(", deployment %q", b.Deployment)
	}
	fmt.Fprintf(g.stdout, "ckptlint generate: wrote %d file(s) for %s\n  %s\n  %s\n", len(changes), what, b.Flink, b.Hadoop)
	width := 0
	for _, c := range changes {
		width = max(width, len(safetext.Path(displayPath(c.Path))))
	}
	for i, c := range changes {
		verb := "created "
		if c.Old != nil {
			verb = "replaced"
		}
		fmt.Fprintf(g.stdout, "  %s %-*s  %s\n", verb, width, safetext.Path(displayPath(c.Path)), b.Files[i].Role)
	}
	if len(b.Notes) > 0 {
		fmt.Fprintln(g.stdout, "notes:")
		for _, n := range b.Notes {
			fmt.Fprintf(g.stdout, "  - %s\n", safetext.Text(n))
		}
	}
	rel := func(p string) string {
		if r, err := filepath.Rel(cfg.Dir, p); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
		return filepath.ToSlash(p)
	}
	name := b.Deployment
	if name == "" {
		name = b.Cluster
	}
	for _, d := range cfg.Deployments {
		if at, err := filepath.Abs(cfg.Resolve(d.FlinkConf)); err == nil && d.Name == b.Deployment &&
			(at == out || at == filepath.Join(out, filepath.FromSlash(b.Files[0].Path))) {
			fmt.Fprintf(g.stdout, "deployment %q in %s names these files: check them with ckptlint lint\n", d.Name, displayPath(cfg.Path))
			return
		}
	}
	fmt.Fprintf(g.stdout, "to lint them with the same facts, point a deployment block of %s at them and run ckptlint lint:\n", displayPath(cfg.Path))
	fmt.Fprintf(g.stdout, "  deployment %q {\n    flink_conf        = %q\n    hadoop_conf       = %q\n    cluster_hdfs_site = %q\n    cluster           = %q\n  }\n",
		name, rel(out), rel(out), rel(filepath.Join(out, "datanode", "hdfs-site.xml")), b.Cluster)
}
