package config

import (
	"errors"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// IgnoresPath reports whether path (an OS path, absolute or relative to the
// working directory) lies below the configuration file's directory and
// matches an ignore pattern (Ignored).
func (c *Config) IgnoresPath(p string) bool {
	if c == nil || c.Dir == "" || len(c.Ignore) == 0 {
		return false
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(c.Dir, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	return c.Ignored(filepath.ToSlash(rel))
}

// Ignored reports whether rel, a path relative to the configuration file's
// directory, matches an ignore pattern. Patterns are matched against the
// whole slash-separated path, segment by segment: each segment is a
// path.Match pattern (*, ?, [...]), and a segment that is exactly "**"
// matches zero or more segments. A path is also ignored when one of its
// parent directories matches, so "legacy" and "legacy/**" both ignore
// everything below legacy/. To match a name at any depth, start the pattern
// with "**/". Paths outside the directory ("../x") are never ignored.
func (c *Config) Ignored(rel string) bool {
	if c == nil || len(c.Ignore) == 0 {
		return false
	}
	rel = path.Clean(filepath.ToSlash(rel))
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return false
	}
	segs := strings.Split(rel, "/")
	for _, p := range c.Ignore {
		pat := splitPattern(p)
		if pat == nil {
			continue
		}
		for n := 1; n <= len(segs); n++ {
			if matchSegments(pat, segs[:n]) {
				return true
			}
		}
	}
	return false
}

// splitPattern cleans a pattern and splits it into segments; nil for a
// pattern that can never match.
func splitPattern(p string) []string {
	p = strings.TrimPrefix(path.Clean("/"+p), "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// checkPattern reports a malformed ignore pattern.
func checkPattern(p string) error {
	segs := splitPattern(p)
	if segs == nil {
		return errors.New("it names no path below the configuration file's directory")
	}
	for _, s := range segs {
		if _, err := path.Match(s, ""); err != nil {
			return err
		}
	}
	return nil
}

// matchSegments matches path segments against pattern segments, "**"
// matching any number of segments. It runs in O(len(pat)·len(segs)).
func matchSegments(pat, segs []string) bool {
	// next[j] reports whether pat[i+1:] matches segs[j:]; cur is row i.
	next := make([]bool, len(segs)+1)
	cur := make([]bool, len(segs)+1)
	next[len(segs)] = true
	for i := len(pat) - 1; i >= 0; i-- {
		for j := len(segs); j >= 0; j-- {
			switch {
			case pat[i] == "**":
				cur[j] = next[j] || (j < len(segs) && cur[j+1])
			case j == len(segs):
				cur[j] = false
			default:
				ok, _ := path.Match(pat[i], segs[j])
				cur[j] = ok && next[j+1]
			}
		}
		next, cur = cur, next
	}
	return next[0]
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
