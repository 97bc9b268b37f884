package model

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Version is a major.minor[.patch] release number.
type Version struct{ Major, Minor, Patch int }

var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^v?(\d+)[._](\d+)(?:[._](\d+))?`) })

// ParseVersion reads "1.20", "1.20.1", "v1_17" (FlinkDeployment spec.flinkVersion) or "3.1.0".
func ParseVersion(s string) (Version, error) {
	m := versionRE().FindStringSubmatch(s)
	if m == nil {
		return Version{}, fmt.Errorf("version %q is not major.minor[.patch]", s)
	}
	v := Version{}
	v.Major, _ = strconv.Atoi(m[1])
	v.Minor, _ = strconv.Atoi(m[2])
	if m[3] != "" {
		v.Patch, _ = strconv.Atoi(m[3])
	}
	return v, nil
}

// V is a shorthand constructor.
func V(major, minor int) Version { return Version{Major: major, Minor: minor} }

// Less reports whether v is older than o.
func (v Version) Less(o Version) bool {
	if v.Major != o.Major {
		return v.Major < o.Major
	}
	if v.Minor != o.Minor {
		return v.Minor < o.Minor
	}
	return v.Patch < o.Patch
}

// AtLeast reports v >= o.
func (v Version) AtLeast(o Version) bool { return !v.Less(o) }

// IsZero reports an unset version.
func (v Version) IsZero() bool { return v == Version{} }

func (v Version) String() string {
	if v.Patch != 0 {
		return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}

// Resolved is a version with where it came from.
type Resolved struct {
	Version Version
	// Source says how the version is known, strongest first (docs/versions.md):
	//   "flag" (--flink-version / --hadoop-version), "config" (.ckptlint.hcl),
	//   "deployment" (a deployment block of .ckptlint.hcl), "manifest"
	//   (FlinkDeployment spec.flinkVersion), "image" (a container image tag:
	//   spec.image, Dockerfile, docker-compose, Kubernetes, Helm values),
	//   "build" (Maven / Gradle), "script" (a tarball name or *_VERSION
	//   assignment) — all of these make the version known — then "evidence"
	//   (keys or the file format only some releases read: a lower bound, not
	//   known) and "unknown" (nothing: Version holds the default ckptlint
	//   reads the files with, DefaultFlink).
	Source string
	// Why explains the source in words (a lower bound, the default).
	Why string
	// Raw is the version as written ("3.2.0"), when there is one.
	Raw string
	// Where names the source for messages: "--flink-version",
	// "image flink:1.10.0-scala_2.12, docker-compose.yml:12".
	Where string
	// Evidence is every version the repository pins for the product (the
	// chosen one included), strongest first.
	Evidence []Evidence
	// Conflicts are pins of another major.minor than the chosen version.
	Conflicts []Evidence
	// Skipped lists files the evidence search could not read, with why.
	Skipped []string
}

// Evidence is one place that pins a version.
type Evidence struct {
	Version string // as written
	Source  string // flag, config, deployment, manifest, image, build, script
	What    string // "image flink:1.10.0-scala_2.12"
	File    string // display path; "" for a flag
	Line    int
}

// Place renders "what, file:line" (or just what).
func (e Evidence) Place() string {
	if e.File == "" {
		return e.What
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s, %s:%d", e.What, e.File, e.Line)
	}
	return fmt.Sprintf("%s, %s", e.What, e.File)
}

// DefaultFlink is the version ckptlint reads the files with when the Flink
// version is not known: the last release that reads only flink-conf.yaml
// (its choice of file is the one behaviour that must pick a version).
// Findings that depend on the version are then at most info, and fix holds
// their edits back.
var DefaultFlink = V(1, 18)

// Known reports whether the version is stated by a person or pinned in the
// repository (not a lower bound, not the default).
func (r Resolved) Known() bool {
	switch r.Source {
	case "flag", "config", "deployment", "manifest", "image", "build", "script":
		return true
	}
	return false
}

// Line is the release line of v, major.minor: 1.1.3 is of line 1.1.
func (v Version) Line() Version { return Version{Major: v.Major, Minor: v.Minor} }

// Outside says where a known Flink version lies against the releases the
// key tables cover (KeyTableFirst to KeyTableLast, compared by
// major.minor): "older", "newer", or "" when it is covered or not known.
// ckptlint cannot tell what a release outside the tables reads, so its key
// existence, precedence and deprecation findings are at most info there and
// fix holds their edits back (docs/versions.md).
func (r Resolved) Outside() string {
	if !r.Known() {
		return ""
	}
	switch l := r.Version.Line(); {
	case l.Less(KeyTableFirst):
		return "older"
	case KeyTableLast().Less(l):
		return "newer"
	}
	return ""
}

// Covered reports whether the Flink version is known and a release the
// key tables cover.
func (r Resolved) Covered() bool { return r.Known() && r.Outside() == "" }

// KeyTableRange is the releases the key tables cover, "0.9 to 2.3".
func KeyTableRange() string { return KeyTableFirst.String() + " to " + KeyTableLast().String() }

// Coverage says that a known Flink version lies outside the key tables:
// "Flink 0.8.1 (--flink-version) is older than the releases ckptlint's
// key tables cover (0.9 to 2.3)"; "" for a covered or unknown version.
func (r Resolved) Coverage(product string) string {
	switch r.Outside() {
	case "older":
		return fmt.Sprintf("%s is older than the releases ckptlint's key tables cover (%s)", r.Text(product), KeyTableRange())
	case "newer":
		return fmt.Sprintf("%s is newer than the releases ckptlint's key tables cover (%s)", r.Text(product), KeyTableRange())
	}
	return ""
}

// ReadAs is the Flink version the files are read with: the version, or for
// one older than the key tables their first release (KeyTableFirst), the
// oldest behaviour ckptlint has read in Flink's sources.
func (r Resolved) ReadAs() Version {
	if r.Version.Line().Less(KeyTableFirst) {
		return KeyTableFirst
	}
	return r.Version
}

// Declared is Known, under the name input.versions.*.declared has always had.
func (r Resolved) Declared() bool { return r.Known() }

// Text is the version for messages with its source: "Flink 1.10 (image
// flink:1.10.0-scala_2.12, docker-compose.yml:12)", "Flink 1.19 or later
// (config.yaml is read from Flink 1.19; …)", or that it is not known.
func (r Resolved) Text(product string) string {
	v := cmp.Or(r.Raw, r.Version.String())
	switch {
	case r.Known():
		return fmt.Sprintf("%s %s (%s)", product, v, r.Where)
	case r.Source == "evidence":
		return fmt.Sprintf("%s %s or later (%s; the exact version is not known: declare it with --%s-version or %s_version in .ckptlint.hcl)",
			product, v, r.Why, strings.ToLower(product), strings.ToLower(product))
	case r.Version.IsZero():
		return fmt.Sprintf("%s version not known (declare it with --%s-version or %s_version in .ckptlint.hcl)",
			product, strings.ToLower(product), strings.ToLower(product))
	}
	return fmt.Sprintf("%s %s (not known: no version is declared or pinned in the repository, so ckptlint reads the files as %s %s does; declare it with --%s-version or %s_version in .ckptlint.hcl)",
		product, v, product, v, strings.ToLower(product), strings.ToLower(product))
}

func (r Resolved) toInput(product string) object {
	m := newObject(17)
	m.str("source", r.Source)
	m.flag("declared", r.Known())
	m.flag("known", r.Known())
	m.str("why", r.Why)
	m.str("where", r.Where)
	m.str("text", r.Text(product))
	if product == "Flink" {
		// Whether the key tables cover the version (docs/versions.md).
		m.flag("covered", r.Covered())
		m.str("outside", r.Outside())
		m.str("coverage", r.Coverage(product))
		m.str("table", KeyTableRange())
	}
	if product == "Hadoop" {
		// Whether the Hadoop key table (its defaults) covers the version.
		m.flag("covered", hadoopCovered(r))
		m.str("table", HadoopTableFirst.String()+" to "+HadoopTableLast.String())
	}
	if !r.Version.IsZero() {
		m.str("value", cmp.Or(r.Raw, r.Version.String()))
		m.num("major", r.Version.Major)
		m.num("minor", r.Version.Minor)
		m.num("patch", r.Version.Patch)
	}
	m.term("evidence", evidenceInput(r.Evidence))
	if len(r.Conflicts) > 0 {
		m.term("conflicts", evidenceInput(r.Conflicts))
	}
	if len(r.Skipped) > 0 {
		m.term("skipped", stringsTerm(r.Skipped))
	}
	return m
}

func evidenceInput(es []Evidence) *ast.Term {
	out := make([]*ast.Term, len(es))
	for i, e := range es {
		m := newObject(6)
		m.str("version", e.Version)
		m.str("source", e.Source)
		m.str("what", e.What)
		m.str("file", e.File)
		m.num("line", e.Line)
		m.str("place", e.Place())
		out[i] = m.objectTerm()
	}
	return ast.ArrayTerm(out...)
}
