package model

import (
	"fmt"
	"strings"
)

// KeyTable renders the key/version catalogue as the Markdown table of
// docs/versions.md: each spelling with the releases that read it under
// that name, from when it is deprecated, what replaces it, and the
// upstream source.
func KeyTable() string {
	var b strings.Builder
	b.WriteString("| key | read from | deprecated from | last read | replaced by | source |\n|---|---|---|---|---|---|\n")
	ver := func(v Version) string {
		if v.IsZero() {
			return "–"
		}
		return v.String()
	}
	// since is "read from": KeyTableFirst (0.9) reads "0.9 or earlier".
	since := func(v Version) string {
		if v.IsZero() || v == KeyTableFirst {
			return "≤ " + KeyTableFirst.String()
		}
		return v.String()
	}
	for _, kd := range flinkKeys {
		for i, n := range kd.Names {
			until := "–"
			if !n.Until.IsZero() {
				until = fmt.Sprintf("before %s", n.Until)
			}
			repl := "–"
			if !n.DeprecatedFrom.IsZero() && i > 0 {
				repl = "`" + kd.Names[0].Key + "`"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", n.Key, since(n.Since), ver(n.DeprecatedFrom), until, repl, orDash(n.Ref))
		}
	}
	for _, n := range otherMeanings {
		fmt.Fprintf(&b, "| `%s` | %s | – | before %s | – | %s |\n", n.Key, since(n.Since), n.Until, n.Ref)
	}
	for _, n := range renamedKeys {
		until := "–"
		if !n.Until.IsZero() {
			until = fmt.Sprintf("before %s", n.Until)
		}
		to, ok := renamedTo[n.Key]
		if !ok {
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | – | %s |\n", n.Key, since(n.Since), ver(n.DeprecatedFrom), until, orDash(n.Ref))
			continue
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | `%s` (read from %s) | %s |\n", n.Key, since(n.Since), ver(n.DeprecatedFrom), until, to, sinceText(to), orDash(n.Ref))
	}
	return b.String()
}

func sinceText(key string) string {
	if v, ok := KeySince(key); ok {
		return v.String()
	}
	return "a release not catalogued"
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
