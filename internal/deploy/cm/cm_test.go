package cm

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepositories walks the Ansible and Chef fixtures as discovery
// would: each file's kind, its versions with their lines, and the
// templates with the configuration file each renders to.
func TestRepositories(t *testing.T) {
	for _, repo := range []string{"ansible", "chef"} {
		t.Run(repo, func(t *testing.T) {
			var b strings.Builder
			root := filepath.Join("testdata", repo)
			err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(root, p)
				disp := filepath.ToSlash(rel)
				if tpl, ok := TemplateTarget(disp); ok {
					fmt.Fprintf(&b, "template %s -> %s (%s)\n", disp, tpl.Target, tpl.Engine)
				}
				kind := KindOf(disp)
				if kind == "" {
					return nil
				}
				src, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				vs, notes := Versions(disp, kind, src)
				fmt.Fprintf(&b, "%s %s\n", kind, disp)
				for _, v := range vs {
					fmt.Fprintf(&b, "  %s %s %s | %s\n", v.Product, v.Version, v.Loc, v.What)
				}
				for _, n := range notes {
					fmt.Fprintf(&b, "  note %s\n", n)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := b.String(), wantRepo[repo]; got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

var wantRepo = map[string]string{
	"ansible": `ansible-vars group_vars/all.yml
  flink 1.10.0 group_vars/all.yml:3 | flink_version: 1.10.0
ansible-vars group_vars/flink/main.yml
  flink 1.10.0 group_vars/flink/main.yml:2 | tarball flink-1.10.0-bin-scala_2.12.tgz
ansible-vars host_vars/tm-1.example.com
ansible-vars roles/flink/defaults/main.yml
  flink 1.9.3 roles/flink/defaults/main.yml:2 | flink_version: 1.9.3
  flink 1.9.3 roles/flink/defaults/main.yml:4 | flink.version: 1.9.3
template roles/flink/templates/core-site.xml.j2 -> core-site.xml (jinja)
template roles/flink/templates/flink-conf.yaml.j2 -> flink-conf.yaml (jinja)
ansible-vars roles/flink/vars/main.yml
ansible-vars roles/hadoop-client/defaults/main.yml
  hadoop 3.1.1 roles/hadoop-client/defaults/main.yml:2 | hadoop.version: 3.1.1
`,
	"chef": `chef-attributes flink/attributes/default.rb
  flink 1.17.1 flink/attributes/default.rb:2 | default['flink']['version'] = '1.17.1'
  flink 1.17.1 flink/attributes/default.rb:5 | tarball flink-1.17.1-bin-scala_2.12.tgz
  hadoop 3.3.6 flink/attributes/default.rb:6 | default['hadoop']['version'] = '3.3.6'
  hadoop 3.3.4 flink/attributes/default.rb:7 | override['flink']['hadoop_version'] = '3.3.4'
template flink/templates/default/flink-conf.yaml.erb -> flink-conf.yaml (erb)
`,
}

func TestKindOf(t *testing.T) {
	for p, want := range map[string]string{
		"inventory/group_vars/all":                 KindAnsibleVars,
		"group_vars/flink.yaml":                    KindAnsibleVars,
		"group_vars/all/vault.yml":                 KindAnsibleVars,
		"host_vars/tm-1.example.com":               KindAnsibleVars,
		"roles/flink/defaults/main.yml":            KindAnsibleVars,
		"defaults/main.yaml":                       KindAnsibleVars,
		"roles/flink/vars/main.yml":                KindAnsibleVars,
		"roles/flink/defaults/main/flink.yml":      KindAnsibleVars,
		"cookbooks/flink/attributes/default.rb":    KindChefAttrs,
		"group_vars/all.yml~":                      "",
		"group_vars/.hidden.yml":                   "",
		"group_vars/README.md":                     "",
		"roles/flink/defaults/other.yml":           "",
		"roles/flink/tasks/main.yml":               "",
		"roles/flink/templates/flink-conf.yaml.j2": "",
		"cookbooks/flink/recipes/default.rb":       "",
	} {
		if got := KindOf(p); got != want {
			t.Errorf("KindOf(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestTemplateTarget(t *testing.T) {
	for name, want := range map[string]string{
		"flink-conf.yaml.j2":      "flink-conf.yaml jinja",
		"flink-conf.yaml.jinja2":  "flink-conf.yaml jinja",
		"config.yaml.j2":          "config.yaml jinja",
		"core-site.xml.erb":       "core-site.xml erb",
		"hdfs-site.xml.tpl":       "hdfs-site.xml go",
		"flink-conf.yaml.tmpl":    "flink-conf.yaml go",
		"core-site.xml.template":  "core-site.xml ",
		"conf/Flink-Conf.yaml.J2": "flink-conf.yaml jinja",
		"yarn-site.xml.j2":        "",
		"flink.service.j2":        "",
		"flink-conf.yaml":         "",
		"flink-conf.yaml.j2.orig": "",
		"log4j.properties.j2":     "",
	} {
		tpl, ok := TemplateTarget(name)
		got := ""
		if ok {
			got = tpl.Target + " " + tpl.Engine
		}
		if got != want {
			t.Errorf("TemplateTarget(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestNotes: what is not read is a note naming the file.
func TestNotes(t *testing.T) {
	for name, tt := range map[string]struct {
		kind, src, want string
	}{
		"vault":  {KindAnsibleVars, "$ANSIBLE_VAULT;1.1;AES256\n6231\n", "g/all:1: not read: encrypted with ansible-vault"},
		"syntax": {KindAnsibleVars, "flink_version: [1.17\n", "g/all: not read as YAML: yaml: line 1: did not find expected ',' or ']'"},
		"flow":   {KindAnsibleVars, strings.Repeat("[", 65), "g/all:1: not read: YAML flow collections nested 65 levels deep; up to 64 are read"},
		"items":  {KindAnsibleVars, "a: [" + strings.Repeat("1,", 40001) + "]\n", "g/all:1: not read: 40002 flow-collection items (',', '[' or '{'); YAML files with up to 40000 are read"},
		"size":   {KindChefAttrs, strings.Repeat("#", MaxBytes+1), "g/all: not read: 1048577 bytes; files of up to 1048576 bytes are read"},
	} {
		t.Run(name, func(t *testing.T) {
			_, notes := Versions("g/all", tt.kind, []byte(tt.src))
			if len(notes) != 1 || notes[0] != tt.want {
				t.Errorf("notes %q, want %q", notes, tt.want)
			}
		})
	}
	// An alias to a mapping is not followed: no expansion, no version.
	vs, notes := Versions("g/all", KindAnsibleVars, []byte("a: &a {flink_version: 1.1.1}\nb: *a\nc: *a\n"))
	if len(vs) != 1 || len(notes) != 0 {
		t.Errorf("aliases: %v %q", vs, notes)
	}
}

// FuzzVersions: no variables or attributes file makes a reader panic or
// hang.
func FuzzVersions(f *testing.F) {
	for _, s := range []string{"flink_version: 1.10.0\n", "flink:\n  version: &v '1.9'\nx: *v\n", "default['flink']['version'] = '1.17.1'\n",
		"node.default.flink.version = \"1.#{x}\"\n=begin\nx\n=end\n", "default[:hadoop][:version] = 'unterminated"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Versions("f", KindAnsibleVars, []byte(s))
		_, _ = Versions("f", KindChefAttrs, []byte(s))
	})
}
