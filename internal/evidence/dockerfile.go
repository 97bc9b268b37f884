package evidence

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
	"sync"
)

// A Dockerfile is read by a documented subset of the Dockerfile reference
// (https://docs.docker.com/reference/dockerfile/), since the module proxy
// this project builds from does not serve BuildKit's parser:
//   - the `# escape=` parser directive (backslash or backtick);
//   - logical lines: an instruction continues while a line ends with the
//     escape character; comment lines inside a continuation are dropped;
//   - FROM [--flag=...] image [AS name]: the image's version, after
//     substituting $VAR / ${VAR} / ${VAR:-default} from ARG defaults;
//   - ARG / ENV NAME=value (and ENV NAME value): FLINK_VERSION-style
//     variables are evidence, and every value is kept for substitution;
//   - RUN (shell form): parsed as a shell script (see shellItems), after
//     the same substitution, for tarball names such as
//     flink-1.17.1-bin-scala_2.12.tgz.
//
// Other instructions are skipped; heredocs are not supported (their lines
// read as unknown instructions and are skipped).

type dockerLine struct {
	line int // first physical line
	text string
}

var escapeDirective = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#\s*escape\s*=\s*([\\` + "`" + `])\s*$`) })

// dockerLines joins continuations into logical instructions.
func dockerLines(src []byte) []dockerLine {
	esc := byte('\\')
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var out []dockerLine
	var cur strings.Builder
	start, n, directives := 0, 0, true
	for sc.Scan() {
		n++
		raw := strings.TrimRight(sc.Text(), "\r")
		trimmed := strings.TrimSpace(raw)
		if directives {
			if m := escapeDirective().FindStringSubmatch(trimmed); m != nil {
				esc = m[1][0]
				continue
			}
			if !strings.HasPrefix(trimmed, "#") || trimmed == "" {
				directives = false
			}
		}
		if strings.HasPrefix(trimmed, "#") {
			continue // a comment, also inside a continuation
		}
		if cur.Len() == 0 {
			if trimmed == "" {
				continue
			}
			start = n
		}
		if strings.HasSuffix(trimmed, string(esc)) {
			cur.WriteString(strings.TrimSuffix(trimmed, string(esc)))
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(trimmed)
		out = append(out, dockerLine{line: start, text: cur.String()})
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, dockerLine{line: start, text: cur.String()})
	}
	return out
}

var dockerVar = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-+]([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)`)
})

// substitute expands variables from vars; an unknown variable without a
// default stays as written (and so is no evidence).
func substitute(s string, vars map[string]string) string {
	return dockerVar().ReplaceAllStringFunc(s, func(m string) string {
		sm := dockerVar().FindStringSubmatch(m)
		name := sm[1] + sm[3]
		if v, ok := vars[name]; ok && v != "" {
			return v
		}
		if strings.Contains(m, ":-") || strings.Contains(m, "-") && sm[2] != "" {
			return sm[2]
		}
		return m
	})
}

func parseDockerfile(path string, src []byte) ([]Item, error) {
	vars := map[string]string{}
	var items []Item
	for _, l := range dockerLines(src) {
		instr, rest, _ := strings.Cut(l.text, " ")
		rest = strings.TrimSpace(rest)
		switch strings.ToUpper(instr) {
		case "FROM":
			fields := strings.Fields(substitute(rest, vars))
			for len(fields) > 0 && strings.HasPrefix(fields[0], "--") {
				fields = fields[1:]
			}
			if len(fields) > 0 {
				if it, ok := imageItem(path, l.line, fields[0]); ok {
					items = append(items, it)
				}
			}
		case "ARG", "ENV":
			for name, val := range dockerAssignments(rest) {
				val = substitute(val, vars)
				vars[name] = val
				if p := varProduct(name); p != "" {
					if v := versionPrefix(val); v != "" {
						items = append(items, Item{Product: p, Version: v, Kind: KindScript,
							What: strings.ToUpper(instr) + " " + name + "=" + val, Path: path, Line: l.line})
					}
				}
				items = append(items, tarballItems(path, l.line, val)...)
			}
		case "RUN":
			if strings.HasPrefix(rest, "[") {
				continue // exec form: no shell
			}
			for strings.HasPrefix(rest, "--") { // RUN --mount=... flags
				_, rest, _ = strings.Cut(rest, " ")
				rest = strings.TrimSpace(rest)
			}
			found, err := shellItems(path, []byte(substitute(rest, vars)), l.line-1)
			if err == nil {
				// Lines of a joined instruction all map to its first line.
				for i := range found {
					found[i].Line = l.line
				}
				items = append(items, found...)
			}
		}
	}
	return items, nil
}

// dockerAssignments reads `NAME=value NAME2="v 2"`, or ENV's legacy
// `NAME value` form, with shell-like quotes.
func dockerAssignments(s string) map[string]string {
	out := map[string]string{}
	words := shellFields(s)
	if len(words) >= 2 && !strings.Contains(words[0], "=") {
		out[words[0]] = strings.Join(words[1:], " ") // ENV NAME value
		return out
	}
	for _, w := range words {
		name, val, ok := strings.Cut(w, "=")
		if ok {
			out[name] = val
		} else {
			out[w] = "" // ARG NAME without default
		}
	}
	return out
}

// shellFields splits on blanks outside single or double quotes and drops
// the quotes.
func shellFields(s string) []string {
	var out []string
	var b strings.Builder
	var quote byte
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote, in = c, true
		case quote == 0 && (c == ' ' || c == '\t'):
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}
