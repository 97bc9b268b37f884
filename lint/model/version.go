package model

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"
)

// Version is a major.minor[.patch] release number.
type Version struct{ Major, Minor, Patch int }

var versionRE = regexp.MustCompile(`^v?(\d+)[._](\d+)(?:[._](\d+))?`)

// ParseVersion reads "1.20", "1.20.1", "v1_17" (FlinkDeployment spec.flinkVersion) or "3.1.0".
func ParseVersion(s string) (Version, error) {
	m := versionRE.FindStringSubmatch(s)
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
	// Source: "flag", "config" (.ckptlint.hcl), "deployment" (a deployment
	// block), "manifest" (FlinkDeployment spec.flinkVersion), "evidence"
	// (inferred from the files: a lower bound) or "assumed".
	Source string
	// Why explains evidence or an assumption in words.
	Why string
	// Raw is the version as declared ("3.2.0"), when declared.
	Raw string
}

// Declared reports whether a person stated the version (not inferred).
func (r Resolved) Declared() bool {
	switch r.Source {
	case "flag", "config", "deployment", "manifest":
		return true
	}
	return false
}

func (r Resolved) toInput() map[string]any {
	return map[string]any{
		"value":    cmp.Or(r.Raw, r.Version.String()),
		"major":    r.Version.Major,
		"minor":    r.Version.Minor,
		"patch":    r.Version.Patch,
		"source":   r.Source,
		"declared": r.Declared(),
		"why":      r.Why,
	}
}
