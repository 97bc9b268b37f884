package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Limits on .ckptlint.hcl, checked before hcl/v2 parses the file: its
// parser is recursive descent, and 100,000 nested "[" overflow the goroutine
// stack, a fatal error no recover can catch. The lexer is a flat state
// machine, so the file is lexed first and its nesting measured on the
// tokens. A real .ckptlint.hcl is a few kilobytes with blocks two levels
// deep.
const (
	// MaxConfigSize is the largest .ckptlint.hcl read, in bytes.
	MaxConfigSize = 1 << 20
	// MaxConfigNesting bounds brackets, braces, parentheses, quotes,
	// heredocs and template sequences open at once.
	MaxConfigNesting = 64
	// MaxConfigChain bounds the other constructs the parser recurses on:
	// consecutive unary operators (!!!x, ---x) and conditionals (a ? b : c)
	// in one file.
	MaxConfigChain = 64
)

// checkLimits returns an error diagnostic when src is over a limit.
func checkLimits(path string, src []byte) *hcl.Diagnostic {
	if len(src) > MaxConfigSize {
		return tooLarge(path)
	}
	toks, _ := hclsyntax.LexConfig(src, path, hcl.InitialPos)
	depth, unary, conds := 0, 0, 0
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenOQuote,
			hclsyntax.TokenOHeredoc, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			depth++
			if depth > MaxConfigNesting {
				return tooDeep(path, t.Range, fmt.Sprintf("more than %d brackets, braces or template sequences open at once", MaxConfigNesting))
			}
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenCQuote,
			hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
			depth = max(depth-1, 0)
		case hclsyntax.TokenQuestion:
			conds++
			if conds > MaxConfigChain {
				return tooDeep(path, t.Range, fmt.Sprintf("more than %d conditional expressions", MaxConfigChain))
			}
		}
		if t.Type == hclsyntax.TokenBang || t.Type == hclsyntax.TokenMinus {
			unary++
			if unary > MaxConfigChain {
				return tooDeep(path, t.Range, fmt.Sprintf("more than %d operators in a row", MaxConfigChain))
			}
		} else {
			unary = 0
		}
	}
	return nil
}

func tooDeep(path string, rng hcl.Range, what string) *hcl.Diagnostic {
	r := rng
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Nested too deeply",
		Detail:   fmt.Sprintf("The configuration file %q has %s; ckptlint refuses to parse it (a .ckptlint.hcl needs a few levels).", path, what),
		Subject:  &r,
	}
}
