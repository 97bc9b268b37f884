// The placeholder recogniser (placeholder.go) tells the placeholders of the template languages
// and substitution tools that fill in configuration files at install time
// (envsubst/sed, Helm, Jinja/Ansible, ERB, autoconf/Maven filtering, %{VAR},
// %VAR%, $(VAR), #{VAR}, "[PLEASE_FILL_IN]" markers). A value or key holding one is unknown until
// rendered: ckptlint neither judges nor edits it. One recogniser serves
// every reader (flink-conf.yaml, config.yaml, FlinkDeployment manifests,
// Hadoop XML); docs/templates.md documents the syntaxes.

package template

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Kind names one placeholder syntax, as shown in messages.
type Kind string

// The recognised syntaxes.
const (
	ShellBrace   Kind = "${VAR}"           // envsubst, sed, shell heredocs
	ShellBare    Kind = "$VAR"             // envsubst, shell heredocs
	Helm         Kind = "{{ .Values.x }}"  // Go templates (Helm, consul-template, gomplate)
	Jinja        Kind = "{{ x }}"          // Jinja2 / Ansible / Twig / Mustache
	JinjaBlock   Kind = "{% … %}"          // Jinja2 / Ansible control blocks
	ERB          Kind = "<%= … %>"         // ERB (Chef, Puppet), JSP/EJS
	AtVar        Kind = "@VAR@"            // autoconf, Maven resource filtering, sed
	PercentBrace Kind = "%{VAR}"           // RPM macros, Puppet, Logstash-style
	Marker       Kind = "[PLEASE_FILL_IN]" // fill-in markers for a human or sed
	SedToken     Kind = "__VAR__"          // tokens a sed script replaces
	PercentVar   Kind = "%VAR%"            // sed, Windows batch, token-replacement tasks
	DollarParen  Kind = "$(VAR)"           // Makefiles, Azure DevOps pipeline variables
	HashBrace    Kind = "#{VAR}"           // Octopus Deploy, Ruby string interpolation
	HadoopEnv    Kind = "${env.VAR}"       // Hadoop's own ${env.X}: resolved from the environment at run time
	// HadoopJVM is a Java system property in Hadoop's ${var}: the JVM's
	// value, which Hadoop reads before any key of that name.
	HadoopJVM Kind = "${system.property}"
)

// Match is one placeholder in a string.
type Match struct {
	Kind       Kind
	Start, End int // byte offsets
}

var (
	reDoubleBrace = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{-?\s*(.*?)\s*-?\}\}|\{\{-?\s*([^\s}]*)`) })
	reJinjaBlock  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{%.*?%\}|\{%`) })
	reERB         = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<%.*?%>|<%`) })
	reShellBrace  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_.]*(?:[:]?[-=+?][^}]*)?\}`) })
	reShellBare   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$[A-Za-z_][A-Za-z0-9_]*`) })
	reAtVar       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`@[A-Za-z_][A-Za-z0-9_.\-]*@`) })
	rePercent     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`%\{[A-Za-z_][A-Za-z0-9_.\-]*\}`) })
	reMarker      = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`[\[<](?:[A-Z0-9]+[ _\-])*(?:FILL|REPLACE|CHANGE|TODO|PLACEHOLDER|YOUR|INSERT|SET)(?:[ _\-][A-Z0-9]+)*[\]>]`)
	})
	reSedToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`__[A-Z][A-Z0-9_]*[A-Z0-9]__`) })
	// rePercentVar needs a name of two characters or more: %p and %t are
	// the JVM's own (-XX:HeapDumpPath=/tmp/heap-%p.hprof, -Xloggc:gc-%t.log).
	rePercentVar  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`%[A-Za-z_][A-Za-z0-9_]+%`) })
	reDollarParen = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\([A-Za-z_][A-Za-z0-9_.]*\)`) })
	reHashBrace   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#\{[A-Za-z_@$][^{}\n]*\}`) })
	// goKeyword opens a Go template action that is not a value: Helm
	// charts use {{ if }}, {{ end }} where Jinja would use {% %}.
	goKeyword = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:if|else|end|range|with|define|block|template|include|tpl|toYaml|quote|required|default)\b`)
	})
)

// Options say which syntaxes a reader's file can hold as placeholders.
type Options struct {
	// Hadoop is set for Hadoop XML: ${var} is Hadoop's own substitution
	// (Configuration.substituteVars), so the recogniser looks at the value
	// after substitution, where a ${var} Hadoop could not resolve from the
	// file is left. ${name} with a dot in name is a Java system property or
	// a configuration key Hadoop resolves (for example ${hadoop.tmp.dir},
	// ${user.name}): Hadoop semantics, not a placeholder. ${env.NAME} is
	// Hadoop semantics whose value ckptlint cannot know: HadoopEnv.
	Hadoop bool
	// SystemProperty, with Hadoop, names the Java system properties every
	// JVM defines: Hadoop substitutes the JVM's value for ${name} before
	// any key of that name, so it is unknown too: HadoopJVM.
	SystemProperty func(name string) bool
	// ShellExpanded is set for a Flink value the start scripts pass through
	// the shell (env.java.opts*: bin/flink-daemon.sh and
	// bin/flink-console.sh run `FLINK_ENV_JAVA_OPTS=$(eval echo
	// ${FLINK_ENV_JAVA_OPTS})`): $VAR, ${VAR} and the command substitution
	// $(cmd) there are Flink semantics.
	ShellExpanded bool
	// PercentTemplate is set for a Flink value Flink itself fills in at
	// %name% (yarn.container-start-command-template: flink-yarn
	// Utils.getStartCommand replaces %java%, %jvmmem%, %jvmopts%,
	// %logging%, %class%, %args%, %redirects%): %VAR% there is Flink
	// semantics.
	PercentTemplate bool
}

// Find returns the placeholders in s, left to right, without overlaps.
func Find(s string, o Options) []Match {
	if !strings.ContainsAny(s, "{$@%<[_") {
		return nil
	}
	var out []Match
	taken := func(a, b int) bool {
		for _, m := range out {
			if a < m.End && b > m.Start {
				return true
			}
		}
		return false
	}
	add := func(k Kind, locs [][]int) {
		for _, l := range locs {
			if !taken(l[0], l[1]) {
				out = append(out, Match{Kind: k, Start: l[0], End: l[1]})
			}
		}
	}
	for _, l := range reDoubleBrace().FindAllStringSubmatchIndex(s, -1) {
		k := Jinja
		if l[2] < 0 {
			l[2], l[3] = l[4], l[5] // unclosed: the first word
		}
		if l[2] >= 0 {
			inner := s[l[2]:l[3]]
			if strings.HasPrefix(inner, ".") || strings.HasPrefix(inner, "$") || strings.Contains(inner, ".Values") ||
				strings.Contains(inner, ".Release") || goKeyword().MatchString(inner) {
				k = Helm
			}
		}
		add(k, [][]int{{l[0], l[1]}})
	}
	add(JinjaBlock, reJinjaBlock().FindAllStringIndex(s, -1))
	add(ERB, reERB().FindAllStringIndex(s, -1))
	add(HashBrace, reHashBrace().FindAllStringIndex(s, -1))
	add(PercentBrace, rePercent().FindAllStringIndex(s, -1))
	for _, l := range reShellBrace().FindAllStringIndex(s, -1) {
		name := s[l[0]+2 : l[1]-1]
		switch {
		case o.ShellExpanded:
			continue
		case o.Hadoop && strings.HasPrefix(name, "env."):
			add(HadoopEnv, [][]int{l})
		case o.Hadoop && o.SystemProperty != nil && o.SystemProperty(name):
			add(HadoopJVM, [][]int{l})
		case o.Hadoop && strings.Contains(name, "."):
			continue // a system property or configuration key Hadoop resolves
		default:
			add(ShellBrace, [][]int{l})
		}
	}
	if !o.ShellExpanded {
		for _, l := range reShellBare().FindAllStringIndex(s, -1) {
			// Java's Outer$Inner class names and "$$" are not variables.
			if l[0] > 0 && (isWord(s[l[0]-1]) || s[l[0]-1] == '$') {
				continue
			}
			add(ShellBare, [][]int{l})
		}
	}
	for _, l := range reAtVar().FindAllStringIndex(s, -1) {
		// user@EXAMPLE.COM@ and similar: both ends must stand apart from words.
		if (l[0] > 0 && isWord(s[l[0]-1])) || (l[1] < len(s) && isWord(s[l[1]])) {
			continue
		}
		add(AtVar, [][]int{l})
	}
	add(Marker, reMarker().FindAllStringIndex(s, -1))
	add(SedToken, reSedToken().FindAllStringIndex(s, -1))
	if !o.ShellExpanded {
		for _, l := range reDollarParen().FindAllStringIndex(s, -1) {
			if l[0] > 0 && s[l[0]-1] == '$' {
				continue // $$(VAR): the escape of Makefiles and Kubernetes
			}
			add(DollarParen, [][]int{l})
		}
	}
	if !o.PercentTemplate {
		for _, l := range rePercentVar().FindAllStringIndex(s, -1) {
			// Both ends stand apart from words and from other percent signs:
			// log patterns run conversions together (%d{…} %-5p %m%n).
			if l[0] > 0 && (isWord(s[l[0]-1]) || s[l[0]-1] == '%') || l[1] < len(s) && (isWord(s[l[1]]) || s[l[1]] == '%') {
				continue
			}
			add(PercentVar, [][]int{l})
		}
	}
	slices.SortFunc(out, func(a, b Match) int { return a.Start - b.Start })
	return out
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Has reports whether s holds a placeholder.
func Has(s string, o Options) bool { return len(Find(s, o)) > 0 }

// IsControl reports whether k changes a file's structure (loops,
// conditionals) rather than standing for one value.
func IsControl(k Kind) bool { return k == JinjaBlock }

// Count tallies placeholders by kind name.
type Count map[string]int

// Add adds the matches of one string.
func (c Count) Add(ms []Match) {
	for _, m := range ms {
		c[string(m.Kind)]++
	}
}

// Total is the number of placeholders counted.
func (c Count) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// String renders the tally for messages, most frequent first:
// "3 ${VAR}, 1 {{ .Values.x }}".
func (c Count) String() string {
	kinds := make([]string, 0, len(c))
	for k := range c {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int {
		if c[a] != c[b] {
			return c[b] - c[a]
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, k := range kinds {
		parts = append(parts, strconv.Itoa(c[k])+" "+k)
	}
	return strings.Join(parts, ", ")
}

// MarkEntries records in Entry.Placeholders the kinds of placeholders in each
// entry's key or value, and returns their tally and the position of the
// first one. opts are the recogniser's options for an entry's key (its
// file format's: internal/format Format.Placeholders).
func MarkEntries(f *parsed.File, opts func(key string) Options) (Count, parsed.Pos) {
	count := Count{}
	var first parsed.Pos
	if f == nil {
		return count, first
	}
	for i := range f.Entries {
		e := &f.Entries[i]
		o := opts(e.Key)
		key := e.Key
		if e.WrittenKey != "" {
			key = e.WrittenKey
		}
		km, vm := Find(key, o), Find(e.Value, o)
		if len(km)+len(vm) == 0 {
			continue
		}
		e.Placeholders = nil
		for _, m := range append(km, vm...) {
			if !slices.Contains(e.Placeholders, string(m.Kind)) {
				e.Placeholders = append(e.Placeholders, string(m.Kind))
			}
		}
		count.Add(km)
		count.Add(vm)
		at := e.ValueSpan.Start
		if len(km) > 0 {
			at = e.KeySpan.Start
		}
		if first.Line == 0 || at.Offset < first.Offset {
			first = at
		}
	}
	return count, first
}

// For are the recogniser's options for the value of key in a file of
// format id: in Hadoop XML ${var} is Hadoop's own substitution, not a
// template placeholder, and ${system.property} a JVM property the JVM
// decides; in Flink's files a shell variable is a placeholder only where
// the start scripts expand it (bin/flink-daemon.sh, bin/flink-console.sh:
// "Evaluate user options for local variable expansion",
// FLINK_ENV_JAVA_OPTS=$(eval echo ...)).
func For(id parsed.Format) func(key string) Options {
	if id == parsed.HadoopCoreSite || id == parsed.HadoopHDFSSite {
		return func(string) Options { return Options{Hadoop: true, SystemProperty: hadoopxml.JVMProperty} }
	}
	return func(key string) Options {
		return Options{ShellExpanded: strings.HasPrefix(key, "env.java.opts"), PercentTemplate: strings.HasSuffix(key, "container-start-command-template")}
	}
}
