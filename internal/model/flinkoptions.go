package model

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/agnivade/levenshtein"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// optionKeyRE is what a Flink option key looks like; anything else (a
// template placeholder, a typo with spaces) is left to other checks.
var optionKeyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]$`) })

// optionTable is the option table of every release read: the releases
// before 1.13 (flinkoptions_legacy_gen.go, from release tags) and 1.13 on
// (flinkoptions_gen.go, from release branches), oldest first, with each
// key's mask over that list (bit i: release i).
var optionTable = sync.OnceValues(func() ([]Version, map[string]uint32) {
	rels := append(append([]Version{}, flinkLegacyReleases...), flinkOptionReleases...)
	if len(rels) > 32 {
		panic("the Flink option table has more releases than a uint32 mask holds")
	}
	keys := make(map[string]uint32, len(flinkOptionKeys)+len(flinkLegacyKeys))
	for k, m := range flinkLegacyKeys {
		keys[k] |= m
	}
	for k, m := range flinkOptionKeys {
		keys[k] |= m << len(flinkLegacyReleases)
	}
	return rels, keys
})

// optionReleases are the releases of the option table, oldest first.
func optionReleases() []Version { r, _ := optionTable(); return r }

// optionKeys maps each key of the option table to its release mask.
func optionKeys() map[string]uint32 { _, k := optionTable(); return k }

// releaseIndex is the bit of version v in optionKeys, or -1 when the
// table has no such release.
func releaseIndex(v Version) int {
	for i, r := range optionReleases() {
		if r.Major == v.Major && r.Minor == v.Minor {
			return i
		}
	}
	return -1
}

// checkedKey reports whether CKPT608 checks key: it is in one of Flink's
// own namespaces, and not a pass-through of another system's options:
// fs.<scheme>.* keys go to the file system plugin of that scheme (Hadoop
// S3A, OSS, Azure, GCS read their own keys from them), and
// kubernetes.operator.* keys are read by the Flink Kubernetes Operator, not
// by Flink.
func checkedKey(key string) bool {
	if !optionKeyRE().MatchString(key) {
		return false
	}
	ns := false
	for _, p := range flinkOptionNamespaces {
		if strings.HasPrefix(key, p) {
			ns = true
		}
	}
	if !ns || strings.HasPrefix(key, "kubernetes.operator.") {
		return false
	}
	if parts := strings.Split(key, "."); parts[0] == "fs" && len(parts) >= 3 && parts[1] != "output" && parts[1] != "hdfs" {
		return false
	}
	return true
}

// unknownKeysInput lists the keys of the Flink file, in the namespaces the
// option table covers, that the release of version v does not know (when
// the version is known, not a lower bound, and in the table) or that no release of the table
// knows. Each entry carries the releases that know the key and the nearest
// known key of the list it was checked against.
func unknownKeysInput(f *parsed.File, v Resolved, lm locs) *ast.Term {
	idx := -1
	if v.Known() { // a lower bound is no exact release (docs/versions.md)
		idx = releaseIndex(v.Version)
	}
	rels, table := optionReleases(), optionKeys()
	first, last := rels[0], rels[len(rels)-1]
	tableText := fmt.Sprintf("Flink %s to %s", first, last)
	var out []*ast.Term
	eff := f.Effective()
	keys := make([]string, 0, len(eff))
	for k := range eff {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !checkedKey(k) {
			continue
		}
		mask := table[k]
		if idx >= 0 && mask&(1<<idx) != 0 || idx < 0 && mask != 0 {
			continue
		}
		knownIn, ranges := releaseRuns(rels, mask)
		listText := tableText
		if idx >= 0 {
			listText = "Flink " + rels[idx].String()
		}
		m := newObject(8)
		m.str("key", k)
		m.value("loc", lm.of(entryLoc(eff[k])))
		m.term("known_in", stringsTerm(knownIn))
		m.term("known_ranges", stringsTerm(ranges))
		m.str("checked_against", listText)
		m.str("table", tableText)
		m.flag("exact", idx >= 0)
		if s := nearestKey(k, idx); s != "" {
			m.str("suggestion", s)
		}
		out = append(out, m.objectTerm())
	}
	return ast.ArrayTerm(out...)
}

// releaseRuns lists the releases of rels whose bit is set in mask, each
// alone and as runs ("1.15 to 1.18"), never nil.
func releaseRuns(rels []Version, mask uint32) (knownIn, ranges []string) {
	knownIn, ranges = []string{}, []string{}
	for i, r := range rels {
		if mask&(1<<i) == 0 {
			continue
		}
		knownIn = append(knownIn, r.String())
		if i > 0 && mask&(1<<(i-1)) != 0 {
			continue // inside a run: the run's text is written at its end
		}
		j := i
		for j+1 < len(rels) && mask&(1<<(j+1)) != 0 {
			j++
		}
		if j == i {
			ranges = append(ranges, r.String())
		} else {
			ranges = append(ranges, r.String()+" to "+rels[j].String())
		}
	}
	return knownIn, ranges
}

// nearestKey is the known key closest to key by edit distance (release idx,
// or any release when idx < 0), when it is close enough to be a likely
// misspelling: at most 3 edits and at most a third of the key's length.
func nearestKey(key string, idx int) string {
	best, bestD := "", 1<<30
	for k, mask := range optionKeys() {
		if idx >= 0 && mask&(1<<idx) == 0 {
			continue
		}
		d := levenshtein.ComputeDistance(key, k)
		if d < bestD || d == bestD && k < best {
			best, bestD = k, d
		}
	}
	if bestD <= 3 && bestD*3 <= len(key) {
		return best
	}
	return ""
}
