// Package cm reads what configuration-management repositories state about
// a Flink deployment: the Flink and Hadoop versions in Ansible variables
// (group_vars, host_vars, a role's defaults/main.yml and vars/main.yml)
// and Chef attributes (a cookbook's attributes/*.rb), as version evidence
// (deploy.Version, each at its file and line); and which configuration
// file a template renders to (flink-conf.yaml.j2 → flink-conf.yaml), so
// that discovery lints the template as one, its placeholders unknown.
//
// Nothing is rendered or evaluated: a variable whose value is itself a
// template expression ("{{ flink_major }}.3", "#{node['x']}") states no
// version.
package cm

import (
	"fmt"
	"path"
	"strings"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// MaxBytes is the largest variables or attributes file read (the input
// limit of version evidence, internal/evidence DefaultLimits.MaxFileBytes).
const MaxBytes = 1 << 20

// maxVersions bounds the versions one file yields.
const maxVersions = 1000

// Kinds of a configuration-management file.
const (
	KindAnsibleVars = "ansible-vars"
	KindChefAttrs   = "chef-attributes"
)

// KindOf tells an Ansible variables file or a Chef attributes file from
// its path (display, slash-separated), "" for any other file:
//   - Ansible: a file in, or one directory below, group_vars/ or
//     host_vars/ (group_vars/all, group_vars/flink.yml,
//     group_vars/all/main.yml, host_vars/tm-1.example.com); a role's defaults/main.yml and vars/main.yml (also main.yaml,
//     and the files of a defaults/main/ or vars/main/ directory), as
//     Ansible's role search path loads them ("Roles", Ansible docs);
//   - Chef: a cookbook's attributes/*.rb ("Attributes", Chef docs).
func KindOf(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	base := path.Base(p)
	dir := path.Base(path.Dir(p))
	up := path.Base(path.Dir(path.Dir(p)))
	ext := strings.ToLower(path.Ext(base))
	// group_vars and host_vars files are named after a group or host
	// (tm-1.example.com), with .yml, .yaml, .json or no extension; Ansible
	// skips its INVENTORY_IGNORE_EXTS (~, .orig, .bak, .ini, .cfg, .retry,
	// .pyc, .pyo) and so does this, and text that is no YAML.
	yamlish := !strings.HasSuffix(base, "~")
	for _, e := range []string{".orig", ".bak", ".ini", ".cfg", ".retry", ".pyc", ".pyo", ".md", ".txt", ".swp", ".j2"} {
		yamlish = yamlish && ext != e
	}
	switch {
	case strings.HasPrefix(base, "."):
		return ""
	case dir == "attributes" && ext == ".rb":
		return KindChefAttrs
	case (dir == "group_vars" || dir == "host_vars" || up == "group_vars" || up == "host_vars") && yamlish:
		return KindAnsibleVars
	case (dir == "defaults" || dir == "vars") && (base == "main.yml" || base == "main.yaml"):
		return KindAnsibleVars
	case dir == "main" && (up == "defaults" || up == "vars") && (ext == ".yml" || ext == ".yaml"):
		return KindAnsibleVars
	}
	return ""
}

// Versions reads the version evidence of a variables or attributes file
// (display path file, kind from KindOf) and notes on what it could not
// read, each naming file:line.
func Versions(file, kind string, src []byte) ([]deploy.Version, []string) {
	if len(src) > MaxBytes {
		return nil, []string{fmt.Sprintf("%s: not read: %d bytes; files of up to %d bytes are read", file, len(src), MaxBytes)}
	}
	switch kind {
	case KindAnsibleVars:
		return ansibleVersions(file, src)
	case KindChefAttrs:
		return chefVersions(file, src)
	}
	return nil, nil
}

// Template is what a configuration-management template renders to.
type Template struct {
	// Target is the configuration file it renders to (flink-conf.yaml,
	// config.yaml, core-site.xml, hdfs-site.xml).
	Target string
	// Engine is the template language its extension names: "jinja" (.j2,
	// .jinja, .jinja2: Ansible's template module), "erb" (.erb: Chef's
	// template resource, Puppet), "go" (.tpl, .tmpl, .gotmpl: Go
	// templates, Helm helpers, consul-template, gomplate), "" for
	// .template, which names no language (envsubst, sed, a script).
	Engine string
}

// templateSuffixes, longest first where one ends another.
var templateSuffixes = []struct{ suffix, engine string }{
	{".jinja2", "jinja"}, {".jinja", "jinja"}, {".j2", "jinja"},
	{".erb", "erb"},
	{".gotmpl", "go"}, {".tmpl", "go"}, {".tpl", "go"},
	{".template", ""},
}

// targets are the configuration files ckptlint lints.
var targets = map[string]bool{"flink-conf.yaml": true, "config.yaml": true, "core-site.xml": true, "hdfs-site.xml": true}

// TemplateTarget tells from a file name which configuration file a
// template renders to: flink-conf.yaml.j2, flink-conf.yaml.erb,
// core-site.xml.tpl, hdfs-site.xml.template, config.yaml.jinja2 (any case
// of the extension); ok is false for any other name (yarn-site.xml.j2,
// flink-conf.yaml, app.yaml.j2).
func TemplateTarget(name string) (Template, bool) {
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	lower := strings.ToLower(base)
	for _, s := range templateSuffixes {
		if t, ok := strings.CutSuffix(lower, s.suffix); ok {
			if targets[t] {
				return Template{Target: t, Engine: s.engine}, true
			}
			return Template{}, false
		}
	}
	return Template{}, false
}
