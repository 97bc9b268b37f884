package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/ckptlint/ckptlint/internal/inputfs"
)

// Load reads and decodes the configuration file at path. It checks syntax,
// attribute names and types, sizes, durations, versions, counts, severities,
// ignore patterns and path mappings; checks that need outside knowledge or
// the whole file (rule ids, cluster references, duplicate blocks) are in
// Validate.
//
// Load never returns nil: the Config holds what could be decoded (Path and
// Dir are always set) and the Diagnostics what is wrong, in file order.
// Callers should treat diags.HasErrors() as a configuration error (exit
// code 2) and print it with diags.Write. Files larger than
// MaxConfigSize, or nested deeper than MaxConfigNesting, are refused.
//
// Which file to load is the caller's choice, in this order: the --config
// flag, then the file Find returns for the working directory, then none
// (a nil or empty *Config, which every method accepts).
func Load(path string) (*Config, *Diagnostics) {
	src, diag := readCapped(path)
	if diag != nil {
		return newConfig(path), &Diagnostics{Diags: hcl.Diagnostics{diag}}
	}
	return Parse(path, src)
}

// Parse decodes configuration source src as if read from path; Load is
// Parse on the file's bytes. The path is used for Dir and in diagnostics.
func Parse(path string, src []byte) (*Config, *Diagnostics) {
	cfg := newConfig(path)
	if diag := checkLimits(path, src); diag != nil {
		return cfg, &Diagnostics{Diags: hcl.Diagnostics{diag}}
	}
	p := hclparse.NewParser()
	f, diags := p.ParseHCL(src, path)
	d := &Diagnostics{Diags: diags, files: p.Files()}
	if diags.HasErrors() || f == nil {
		// Decoding a body with syntax errors only adds noise.
		sortDiagnostics(d.Diags)
		return cfg, d
	}
	var raw rawConfig
	d.Diags = append(d.Diags, gohcl.DecodeBody(f.Body, nil, &raw)...)
	k := &checker{}
	k.convert(&raw, cfg)
	d.Append(k.diags...)
	d.Diags = firstPerSubject(d.Diags)
	return cfg, d
}

// firstPerSubject drops an error whose subject range already has one: gohcl
// follows "Variables not allowed" with "Unsuitable value: value must be
// known" on the same expression, which only repeats the first.
func firstPerSubject(diags hcl.Diagnostics) hcl.Diagnostics {
	seen := map[hcl.Range]bool{}
	out := diags[:0]
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Subject != nil {
			if seen[*d.Subject] {
				continue
			}
			seen[*d.Subject] = true
		}
		out = append(out, d)
	}
	return out
}

func newConfig(path string) *Config {
	dir := filepath.Dir(path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return &Config{Path: path, Dir: dir}
}

// readCapped reads path when it is a regular file of at most
// MaxConfigSize bytes (opened non-blocking: a FIFO never hangs the run).
func readCapped(path string) ([]byte, *hcl.Diagnostic) {
	src, err := inputfs.ReadRegular(path, MaxConfigSize)
	var tl *inputfs.TooLargeError
	if errors.As(err, &tl) {
		return nil, tooLarge(path)
	}
	if err != nil {
		return nil, readFailed(path, err)
	}
	return src, nil
}

func readFailed(path string, err error) *hcl.Diagnostic {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Failed to read file",
		Detail:   fmt.Sprintf("The configuration file %q could not be read: %v.", path, err),
	}
}

func tooLarge(path string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "File too large",
		Detail: fmt.Sprintf("The configuration file %q is larger than %d MiB; ckptlint refuses to read it.",
			path, MaxConfigSize>>20),
	}
}
