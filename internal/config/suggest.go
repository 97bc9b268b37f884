package config

import (
	"fmt"
	"strings"

	"github.com/agnivade/levenshtein"
)

// didYouMean returns ` Did you mean "x"?` for the option closest to s, or ""
// when none is close. A case-insensitive match wins; otherwise the nearest
// option within an edit distance of 2 (the bound hcl uses for attribute
// names), counting a prefix such as "warn" as 1, is suggested, the first in
// options order on a tie. The distance (in runes) is agnivade/levenshtein,
// the one OPA links and internal/model's key suggestions use.
func didYouMean(s string, options []string) string {
	best, bestDist := "", 3
	for _, o := range options {
		if strings.EqualFold(s, o) {
			best = o
			break
		}
		d := levenshtein.ComputeDistance(strings.ToLower(s), strings.ToLower(o))
		if s != "" && strings.HasPrefix(strings.ToLower(o), strings.ToLower(s)) {
			d = 1 // an abbreviation such as "warn"
		}
		if d < bestDist {
			best, bestDist = o, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}
