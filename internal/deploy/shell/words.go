package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// raw is the source text of a node.
func (r *reader) raw(n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(r.src) || s > e {
		return ""
	}
	return string(r.src[s:e])
}

// lookup is the value of a variable known here: the script's own, else
// one given by the container (a Dockerfile's ARG and ENV).
func (r *reader) lookup(name string, script bool) (string, bool) {
	if script {
		if v, ok := r.vars[name]; ok {
			return v.value, v.known
		}
	}
	v, ok := r.o.Env[name]
	return v, ok
}

// param expands $NAME, ${NAME} and ${NAME:-default} / ${NAME-default}
// from the variables known (the script's own when script is set); any
// other parameter expansion is unknown.
func (r *reader) param(p *syntax.ParamExp, script bool) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return "", false
	}
	v, ok := r.lookup(p.Param.Value, script)
	if p.Exp == nil {
		return v, ok
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
		if ok && (v != "" || p.Exp.Op == syntax.DefaultUnset) {
			return v, true
		}
		if p.Exp.Word == nil {
			return "", true
		}
		return r.eval(p.Exp.Word, script)
	}
	return "", false
}

// eval is a word's value: literal and quoted parts as the shell reads
// them, parameters expanded where known; a part that is not known (a
// command substitution, an unknown variable, arithmetic, a glob) is kept
// as written, and known is false.
func (r *reader) eval(w *syntax.Word, script bool) (s string, known bool) {
	if w == nil {
		return "", true
	}
	var b strings.Builder
	known = true
	for _, p := range w.Parts {
		if !r.part(&b, p, script) {
			known = false
		}
	}
	return b.String(), known
}

func (r *reader) part(b *strings.Builder, p syntax.WordPart, script bool) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		b.WriteString(unescape(p.Value))
		return true
	case *syntax.SglQuoted:
		b.WriteString(p.Value)
		return !p.Dollar // $'...' escapes are not decoded
	case *syntax.DblQuoted:
		ok := true
		for _, q := range p.Parts {
			if l, isLit := q.(*syntax.Lit); isLit {
				b.WriteString(unescapeQuoted(l.Value))
				continue
			}
			if !r.part(b, q, script) {
				ok = false
			}
		}
		return ok
	case *syntax.ParamExp:
		if v, ok := r.param(p, script); ok {
			b.WriteString(v)
			return true
		}
	}
	b.WriteString(r.raw(p))
	return false
}

// unescape drops the backslashes of an unquoted literal (\x is x).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeQuoted drops the backslashes that quote $ ` " \ inside double
// quotes (bash's manual, "Double Quotes").
func unescapeQuoted(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// literal is the text of a word made only of literal and quoted parts,
// and of the container's variables (Options.Env).
func (r *reader) literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.WriteString(q.Value)
				case *syntax.ParamExp:
					v, ok := r.param(q, false)
					if !ok {
						return "", false
					}
					b.WriteString(v)
				default:
					return "", false
				}
			}
		case *syntax.ParamExp:
			v, ok := r.param(p, false)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// wordText is a word's literal text with the container's variables
// expanded and every other expansion replaced by a space, so no version
// is read across a variable.
func (r *reader) wordText(w *syntax.Word) string {
	var b strings.Builder
	var add func(p syntax.WordPart)
	add = func(p syntax.WordPart) {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				add(q)
			}
		case *syntax.ParamExp:
			if v, ok := r.param(p, false); ok {
				b.WriteString(v)
			} else {
				b.WriteByte(' ')
			}
		default:
			b.WriteByte(' ')
		}
	}
	for _, p := range w.Parts {
		add(p)
	}
	return b.String()
}

// args evaluates a command's words.
func (r *reader) args(ws []*syntax.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i], _ = r.eval(w, true)
	}
	return out
}

// lastLit is the literal text after the last '/' of a word (the command
// name of $FLINK_HOME/bin/start-cluster.sh), "" when that part is not
// literal.
func lastLit(w *syntax.Word) string {
	if w == nil || len(w.Parts) == 0 {
		return ""
	}
	var s string
	switch p := w.Parts[len(w.Parts)-1].(type) {
	case *syntax.Lit:
		s = p.Value
	case *syntax.SglQuoted:
		s = p.Value
	case *syntax.DblQuoted:
		if len(p.Parts) == 0 {
			return ""
		}
		l, ok := p.Parts[len(p.Parts)-1].(*syntax.Lit)
		if !ok {
			return ""
		}
		s = l.Value
	default:
		return ""
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	if len(w.Parts) > 1 {
		return "" // ${X}foo: the name is not known
	}
	return s
}
