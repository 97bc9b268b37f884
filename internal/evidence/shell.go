package evidence

import (
	"bytes"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// parseShellFile reads a shell script with mvdan.cc/sh's bash parser.
func parseShellFile(path string, src []byte) ([]Item, error) {
	items, err := shellItems(path, src, 0)
	if err != nil {
		return items, fmt.Errorf("not read as a shell script: %v", err)
	}
	return items, nil
}

// shellItems walks the syntax tree of a script: every word's literal text
// is matched against the tarball names, and assignments to FLINK_VERSION /
// HADOOP_VERSION (any case, _ . - or nothing between) with a literal value
// are evidence too. Words built from expansions are matched on their
// literal parts only, so "flink-${V}-bin.tgz" is no evidence. lineOffset
// is added to every line (a Dockerfile RUN parsed on its own).
func shellItems(path string, src []byte, lineOffset int) ([]Item, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(bytes.NewReader(src), path)
	if err != nil {
		return nil, err
	}
	var items []Item
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil || n.Value == nil {
				return true
			}
			if p := varProduct(n.Name.Value); p != "" {
				if lit, ok := literal(n.Value); ok {
					if v := versionPrefix(lit); v != "" {
						items = append(items, Item{Product: p, Version: v, Kind: KindScript,
							What: n.Name.Value + "=" + lit, Path: path, Line: int(n.Pos().Line()) + lineOffset})
					}
				}
			}
		case *syntax.Word:
			if text := wordText(n); text != "" {
				items = append(items, tarballItems(path, int(n.Pos().Line())+lineOffset, text)...)
			}
		}
		return true
	})
	return items, nil
}

// literal is the text of a word made only of literal and quoted parts.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// wordText is a word's literal text with every expansion replaced by a
// space, so no version is read across a variable.
func wordText(w *syntax.Word) string {
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
		default:
			b.WriteByte(' ')
		}
	}
	for _, p := range w.Parts {
		add(p)
	}
	return b.String()
}
