// Package buildinfo is ckptlint's version identity: the version, commit and
// build date a release build stamps with -ldflags -X (see .goreleaser.yaml),
// or what the Go toolchain recorded otherwise (runtime/debug.ReadBuildInfo:
// the module version of `go install …@vX`, and the vcs.* settings of a build
// in a git checkout), and the documentation URLs that belong to that version.
package buildinfo

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// Set by release builds, e.g.
//
//	-X github.com/ckptlint/ckptlint/internal/buildinfo.version=v1.2.3
//	-X github.com/ckptlint/ckptlint/internal/buildinfo.commit=<full SHA>
//	-X github.com/ckptlint/ckptlint/internal/buildinfo.date=2026-12-01T05:00:00Z
//	-X github.com/ckptlint/ckptlint/internal/buildinfo.modified=false
var (
	version  string
	commit   string
	date     string
	modified string
)

// Repository is where the documentation of every version lives.
const Repository = "https://github.com/ckptlint/ckptlint"

// Info is what `ckptlint version` prints.
type Info struct {
	Version   string `json:"version"`            // v1.2.3, a pseudo-version, or "devel"
	Commit    string `json:"commit,omitempty"`   // full or abbreviated SHA; empty when unknown
	Date      string `json:"date,omitempty"`     // build date (release) or commit date (vcs.time), RFC 3339
	Modified  *bool  `json:"modified,omitempty"` // the tree had uncommitted changes; nil when unknown
	GoVersion string `json:"go"`
	OS        string `json:"os"`
	Arch      string `json:"arch"`
	// Source says where Version came from: "ldflags" (a release or the
	// GitHub Action's source build), "module" (go install …@version),
	// "vcs" (a build in a git checkout) or "none".
	Source string `json:"source"`
	// Docs is the git ref the documentation links point at (DocsRef).
	Docs string `json:"docs"`
}

// Get returns the identity of the running binary. It is read once: it is
// fixed for the process, and debug.ReadBuildInfo parses the build
// information anew on every call, which a rule's documentation link
// (DocURL) did for every finding: 5% of a cold run's CPU on a tree with
// many findings (docs/performance.md). Modified points at a value shared
// by every caller: read it, never write it.
func Get() Info { return info() }

var info = sync.OnceValue(func() Info {
	bi, _ := debug.ReadBuildInfo()
	return get(bi)
})

func get(bi *debug.BuildInfo) Info {
	in := Info{Version: "devel", GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, Source: "none"}
	vcs := map[string]string{}
	if bi != nil {
		in.GoVersion = bi.GoVersion
		for _, s := range bi.Settings {
			if k, ok := strings.CutPrefix(s.Key, "vcs."); ok {
				vcs[k] = s.Value
			}
		}
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			// Since Go 1.24 a build in a git checkout stamps a version too;
			// "+dirty" marks uncommitted changes.
			in.Version, in.Source = strings.TrimSuffix(v, "+dirty"), "module"
			if strings.HasSuffix(v, "+dirty") {
				in.Modified = ptr(true)
			}
			if vcs["revision"] != "" {
				in.Source = "vcs"
			}
		}
	}
	in.Commit = vcs["revision"]
	in.Date = vcs["time"]
	if m, err := strconv.ParseBool(vcs["modified"]); err == nil {
		in.Modified = ptr(m)
	}
	if in.Commit == "" && module.IsPseudoVersion(in.Version) {
		in.Commit, _ = module.PseudoVersionRev(in.Version)
	}
	if version != "" {
		in.Version, in.Source = version, "ldflags"
	}
	if commit != "" {
		in.Commit = commit
	}
	if date != "" {
		in.Date = date
	}
	if m, err := strconv.ParseBool(modified); err == nil {
		in.Modified = ptr(m)
	}
	in.Docs = in.DocsRef()
	return in
}

func ptr(b bool) *bool { return &b }

// String is the multi-line form `ckptlint version` prints.
func (in Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ckptlint %s\n", in.Version)
	line := func(k, v string) {
		if v == "" {
			v = "unknown"
		}
		fmt.Fprintf(&b, "  %-9s %s\n", k+":", v)
	}
	line("commit", in.Commit)
	line("built", in.Date)
	mod := ""
	if in.Modified != nil {
		mod = strconv.FormatBool(*in.Modified)
	}
	line("modified", mod)
	line("go", in.GoVersion)
	line("platform", in.OS+"/"+in.Arch)
	line("docs", in.DocsRef()+docsNote(in))
	return b.String()
}

func docsNote(in Info) string {
	if in.DocsRef() == "main" {
		return " (a development build: the documentation links point at the main branch)"
	}
	return ""
}

var hexRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{7,40}$`) })

// DocsRef is the git ref whose documentation describes this binary: the
// release tag (v1.2.3, also a pre-release such as v1.3.0-rc.1), the commit
// of a pseudo-version or of an unmodified ldflags build, else "main" (a
// development build, whose docs may be newer than the binary).
func (in Info) DocsRef() string {
	v := in.Version
	switch {
	case semver.IsValid(v) && !module.IsPseudoVersion(v) && semver.Build(v) == "":
		return v
	case module.IsPseudoVersion(v):
		if rev, err := module.PseudoVersionRev(v); err == nil {
			return rev
		}
	case hexRE().MatchString(v):
		// The GitHub Action's source build of a SHA pin stamps the SHA.
		return v
	}
	return "main"
}

// DocURL is the URL of a file of the repository (slash-separated, e.g.
// "docs/rules/CKPT101.md") as of this binary's DocsRef.
func (in Info) DocURL(path string) string {
	return Repository + "/blob/" + in.DocsRef() + "/" + path
}

// DocURL is Get().DocURL(path).
func DocURL(path string) string { return Get().DocURL(path) }
