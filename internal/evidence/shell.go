package evidence

import (
	"fmt"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/deploy/shell"
)

// parseShellFile reads a shell script with the one shell reader,
// internal/deploy/shell (mvdan.cc/sh's bash parser, within its size and
// nesting limits): every word's literal text is matched against the
// tarball names, and assignments to FLINK_VERSION / HADOOP_VERSION (any
// case, _ . - or nothing between) with a literal value are evidence too.
// Words built from expansions are matched on their literal parts only, so
// "flink-${V}-bin.tgz" is no evidence.
func parseShellFile(path string, src []byte) ([]Item, error) {
	vs, err := shell.Versions(path, src, shell.Options{})
	if err != nil {
		return nil, fmt.Errorf("not read as a shell script: %v", err)
	}
	return scriptItems(path, vs), nil
}

// scriptItems are versions a script or a Dockerfile states, as evidence
// of KindScript.
func scriptItems(path string, vs []deploy.Version) []Item {
	items := make([]Item, 0, len(vs))
	for _, v := range vs {
		items = append(items, Item{Product: v.Product, Version: v.Version, Kind: KindScript, What: v.What, Path: path, Line: v.Loc.Line})
	}
	return items
}
