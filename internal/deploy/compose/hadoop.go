package compose

import (
	"encoding/xml"
	"sort"
	"strings"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// The bde2020 Hadoop images (big-data-europe/docker-hadoop, and the
// docker-hive, docker-spark and docker-flink images built on the same
// base) write their Hadoop configuration from the environment when the
// container starts: base/entrypoint.sh (commit 8414e2b05122, "configure
// /etc/hadoop/core-site.xml core CORE_CONF") takes every variable
// CORE_CONF_<name> (HDFS_CONF_<name>), turns <name> into the property
// name with `perl -pe 's/___/-/g; s/__/@/g; s/_/./g; s/@/_/g;'` (so
// CORE_CONF_fs_defaultFS is fs.defaultFS, HDFS_CONF_dfs_namenode_name_dir
// dfs.namenode.name.dir, ___ a dash and __ an underscore), and adds
// `<property><name>$name</name><value>${value}</value></property>` before
// </configuration> of /etc/hadoop/core-site.xml (hdfs-site.xml); the base
// image's HADOOP_CONF_DIR is /etc/hadoop (base/Dockerfile). The entry goes
// through `echo $entry` unquoted, so runs of white space in a value
// become one space, and through sed, so a value with & or \ or < is not
// written as declared.
//
// The entrypoint also sets CORE_CONF_fs_defaultFS to
// hdfs://<the container's hostname>:8020 when the variable is unset: that
// value is the container's and is not made up here.
var siteFiles = []struct{ prefix, name string }{
	{"CORE_CONF_", "core-site.xml"},
	{"HDFS_CONF_", "hdfs-site.xml"},
}

// bdeHadoopConf is the bde2020 images' Hadoop configuration directory.
const bdeHadoopConf = "/etc/hadoop/"

// propertyName is the entrypoint's perl substitution.
func propertyName(s string) string {
	s = strings.ReplaceAll(s, "___", "-")
	s = strings.ReplaceAll(s, "__", "\x00")
	s = strings.ReplaceAll(s, "_", ".")
	return strings.ReplaceAll(s, "\x00", "_")
}

// siteTexts are the core-site.xml and hdfs-site.xml a bde2020 image
// writes from the workload's CORE_CONF_* and HDFS_CONF_* variables: one
// Text per file declaring them (the compose file, an env_file), in which
// each property lies on the line of its variable, so the Hadoop reader's
// findings point at the variable. None is Exact: the XML is not what the
// container file holds byte for byte.
func (r *reader) siteTexts(svc string, env []deploy.EnvVar, _ map[string]envVar) []*deploy.Text {
	var out []*deploy.Text
	for _, sf := range siteFiles {
		byFile := map[string][]deploy.EnvVar{}
		var files []string
		for _, e := range env {
			if !strings.HasPrefix(e.Name, sf.prefix) || len(e.Name) == len(sf.prefix) || e.Unknown != "" {
				continue
			}
			if strings.ContainsAny(e.Value, "&\\<\n") {
				r.note("%s: %s holds & \\ < or a newline, which bde2020's entrypoint does not write into %s as declared: not read", e.Loc, e.Name, sf.name)
				continue
			}
			if _, ok := byFile[e.Loc.File]; !ok {
				files = append(files, e.Loc.File)
			}
			byFile[e.Loc.File] = append(byFile[e.Loc.File], e)
		}
		sort.Strings(files)
		for _, f := range files {
			out = append(out, siteText(sf.name, f, sf.prefix, byFile[f]))
		}
	}
	return out
}

// siteText lays the properties out on the lines of their variables.
func siteText(name, file, prefix string, vars []deploy.EnvVar) *deploy.Text {
	sort.SliceStable(vars, func(i, j int) bool { return vars[i].Loc.Line < vars[j].Loc.Line })
	last := max(vars[len(vars)-1].Loc.Line, 1)
	lines := make([]string, last)
	for _, e := range vars {
		var v strings.Builder
		_ = xml.EscapeText(&v, []byte(strings.Join(strings.Fields(e.Value), " ")))
		var n strings.Builder
		_ = xml.EscapeText(&n, []byte(propertyName(e.Name[len(prefix):])))
		i := max(e.Loc.Line, 1) - 1
		lines[i] += "<property><name>" + n.String() + "</name><value>" + v.String() + "</value></property>"
	}
	lines[0] = "<configuration>" + lines[0]
	lines[last-1] += "</configuration>"
	return &deploy.Text{
		Name: name, Container: file, Loc: vars[0].Loc, Path: bdeHadoopConf + name,
		Src: []byte(strings.Join(lines, "\n") + "\n"),
	}
}
