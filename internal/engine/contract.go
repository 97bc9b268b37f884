package engine

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/rule"
)

// Rule is a rule's metadata as read from its METADATA block: the one rule
// type of internal/rule.
type Rule = rule.Rule

var (
	idPattern   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{2,8}[0-9]{3}$`) })
	namePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`) })
)

// ContractError is a policy module that does not follow the contract.
type ContractError struct {
	File string
	Line int
	Msg  string
}

func (e *ContractError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ruleFromModule checks one rule module against the contract and returns its
// metadata.
func ruleFromModule(m *ast.Module) (*Rule, error) {
	file := m.Package.Location.File
	line := m.Package.Location.Row
	bad := func(format string, a ...any) error {
		return &ContractError{File: file, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	path := m.Package.Path.String() // data.ckptlint.rules.family.rule
	parts := strings.Split(strings.TrimPrefix(path, "data."), ".")
	if len(parts) != 4 || parts[0] != "ckptlint" || parts[1] != "rules" {
		return nil, bad("rule package %s must be ckptlint.rules.<family>.<rule>", strings.TrimPrefix(path, "data."))
	}
	var ann *ast.Annotations
	for _, a := range m.Annotations {
		if a.Scope == "package" {
			ann = a
		}
	}
	if ann == nil {
		return nil, bad("rule package %s has no package METADATA block (title, description, custom.id, custom.name, custom.severity, custom.fixable)", strings.TrimPrefix(path, "data."))
	}
	line = ann.Location.Row
	r := &Rule{Package: path, Family: parts[2], File: file, Line: line, Title: ann.Title, Description: ann.Description}
	for _, rr := range ann.RelatedResources {
		if rr.Ref.String() != "" {
			r.Related = append(r.Related, rr.Ref.String())
		}
	}
	id, _ := ann.Custom["id"].(string)
	if !idPattern().MatchString(id) {
		return nil, bad("METADATA custom.id %q must look like CKPT101 (letters then three digits)", id)
	}
	r.ID = id
	name, _ := ann.Custom["name"].(string)
	if !namePattern().MatchString(name) {
		return nil, bad("METADATA custom.name %q must be kebab-case, e.g. checkpoint-timeout-too-short", name)
	}
	r.Name = name
	sev, _ := ann.Custom["severity"].(string)
	s, err := finding.ParseSeverity(sev)
	if err != nil {
		return nil, bad("METADATA custom.severity: %v", err)
	}
	r.Severity = s
	fx, ok := ann.Custom["fixable"].(bool)
	if !ok {
		return nil, bad("METADATA custom.fixable must be true or false")
	}
	r.Fixable = fx
	if strings.TrimSpace(r.Title) == "" || strings.TrimSpace(r.Description) == "" {
		return nil, bad("METADATA needs a title and a description")
	}
	hasDeny := false
	for _, rule := range m.Rules {
		if rule.Head.Name.String() != "deny" && rule.Head.Ref().String() != "deny" {
			continue
		}
		hasDeny = true
		if rule.Head.Key == nil {
			return nil, &ContractError{File: file, Line: rule.Location.Row,
				Msg: "deny must be a partial set rule (`deny contains f if { ... }`), not a boolean or complete rule"}
		}
	}
	if !hasDeny {
		return nil, bad("rule package %s defines no `deny contains f if { ... }` rule", strings.TrimPrefix(path, "data."))
	}
	return r, nil
}
