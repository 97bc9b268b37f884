package config

import (
	"fmt"
	"strings"
)

// didYouMean returns ` Did you mean "x"?` for the option closest to s, or ""
// when none is close. A case-insensitive match wins; otherwise the nearest
// option within an edit distance of 2 (the bound hcl uses for attribute
// names), counting a prefix such as "warn" as 1, is suggested, the first in
// options order on a tie.
func didYouMean(s string, options []string) string {
	best, bestDist := "", 3
	for _, o := range options {
		if strings.EqualFold(s, o) {
			best = o
			break
		}
		d := editDistance(strings.ToLower(s), strings.ToLower(o))
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

// editDistance is the Levenshtein distance between a and b in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
