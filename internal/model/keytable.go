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
		if v.IsZero() || v == v1_0 {
			return "–"
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
			since := ver(n.Since)
			if since == "–" {
				since = "any"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", n.Key, since, ver(n.DeprecatedFrom), until, repl, orDash(n.Ref))
		}
	}
	for _, n := range renamedKeys {
		to, ok := renamedTo[n.Key]
		if !ok {
			continue
		}
		until := "–"
		if !n.Until.IsZero() {
			until = fmt.Sprintf("before %s", n.Until)
		}
		ref := "FLINK-29372 (1.17 release notes)"
		if n.DeprecatedFrom == v1_5 {
			ref = "deprecated by FLINK-7967 (1.5); removed by FLINK-34085 (2.0)"
		}
		fmt.Fprintf(&b, "| `%s` | any | %s | %s | `%s` (read from %s) | %s |\n", n.Key, ver(n.DeprecatedFrom), until, to, sinceText(to), ref)
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
