package compose

import (
	"bytes"
	"path"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/format"
	"github.com/compose-spec/compose-go/v2/types"
	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// workload is the deploy.Workload of service s.
func (r *reader) workload(p *types.Project, s types.ServiceConfig) deploy.Workload {
	idx := r.idx
	w := deploy.Workload{Name: s.Name, Source: Source, Loc: idx.serviceLoc(s.Name), Image: s.Image, Group: p.Name}
	if s.Image != "" {
		w.ImageLoc = idx.attrLoc(s.Name, "image")
	}
	w.Role, w.RoleLoc = r.role(s)
	r.replicas(s, &w)
	r.build(s, &w)
	env := r.serviceEnv(s)
	names := make([]string, 0, len(env))
	for k := range env {
		if k == "" {
			r.note("%s: a variable without a name: not read", idx.attrLoc(s.Name, "environment"))
			continue
		}
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		w.Env = append(w.Env, r.envVar(s.Name, k, env[k]))
	}
	w.Texts = r.siteTexts(s.Name, w.Env, env)
	w.Mounts = r.mounts(p, s)
	return w
}

// replicas: deploy.replicas, or scale (compose-go's consistency check
// refuses the two when they differ; it is skipped here, so deploy.replicas
// wins, as compose-go's ServiceConfig.GetScale reads it first).
func (r *reader) replicas(s types.ServiceConfig, w *deploy.Workload) {
	var n *int
	var keys []string
	switch {
	case s.Deploy != nil && s.Deploy.Replicas != nil:
		n, keys = s.Deploy.Replicas, []string{"deploy", "replicas"}
	case s.Scale != nil:
		n, keys = s.Scale, []string{"scale"}
	default:
		return
	}
	f, k, v := r.idx.attr(s.Name, keys...)
	if v != nil && v.Kind == yaml.ScalarNode {
		if _, unknown := r.env.casts[v.Value]; unknown {
			r.note("%s:%d: %s is %s, a variable .env does not define: the number of %s processes is unknown", f.file, k.Line, strings.Join(keys, "."), v.Value, s.Name)
			return
		}
	}
	w.Replicas = *n
	if k != nil {
		w.ReplicasLoc = deploy.Loc{File: f.file, Line: k.Line}
	}
}

// build: the Dockerfile of build: (context and dockerfile, relative to
// the compose file's directory; compose-go's Normalize defaults them to
// "." and "Dockerfile").
func (r *reader) build(s types.ServiceConfig, w *deploy.Workload) {
	b := s.Build
	if b == nil {
		return
	}
	loc := r.idx.attrLoc(s.Name, "build")
	switch {
	case b.DockerfileInline != "":
		r.note("%s: build.dockerfile_inline is not read", loc)
		return
	case strings.Contains(b.Context, "://") || strings.HasPrefix(b.Context, "git@"):
		r.note("%s: build context %s is remote: not read", loc, b.Context)
		return
	case path.IsAbs(b.Context) || strings.HasPrefix(b.Context, "~") || path.IsAbs(b.Dockerfile):
		r.note("%s: build context %s lies outside the repository: not read", loc, path.Join(b.Context, b.Dockerfile))
		return
	}
	df := path.Join(r.dir, b.Context, b.Dockerfile)
	if !r.inside(df) {
		r.note("%s: Dockerfile %s lies outside the repository: not read", loc, df)
		return
	}
	w.Build = &deploy.Build{Dockerfile: df, Context: path.Join(r.dir, b.Context), Loc: loc}
}

// inside tells whether a display path lies inside the repository.
func (r *reader) inside(p string) bool {
	if r.opt.Inside != nil {
		return r.opt.Inside(p)
	}
	return ups(p) <= ups(r.dir)
}

// ups counts the leading ../ of a clean relative path.
func ups(p string) int {
	n := 0
	for p == ".." || strings.HasPrefix(p, "../") {
		n++
		p = strings.TrimPrefix(strings.TrimPrefix(p, ".."), "/")
	}
	return n
}

// envNode finds where variable k of service name's environment is
// written: its key in an environment mapping, or its item in an
// environment list, in the node compose-go's merge takes it from.
func (idx *index) envNode(name, k string) (n *svcNode, key, val *yaml.Node, item bool) {
	for _, c := range idx.candidates(name) {
		_, env := lookup(c.val, "environment")
		if env == nil {
			continue
		}
		switch env.Kind {
		case yaml.MappingNode:
			if kk, vv := lookup(env, k); kk != nil {
				return c, kk, vv, false
			}
		case yaml.SequenceNode:
			var found *yaml.Node
			for _, it := range env.Content {
				it = resolve(it)
				if it.Kind == yaml.ScalarNode && (it.Value == k || strings.HasPrefix(it.Value, k+"=")) {
					found = it // the last one wins
				}
			}
			if found != nil {
				return c, found, found, true
			}
		}
	}
	return nil, nil, nil, false
}

// envVar is one variable of a workload's environment, located, with the
// flink-conf.yaml FLINK_PROPERTIES holds.
func (r *reader) envVar(svc, k string, v envVar) deploy.EnvVar {
	e := deploy.EnvVar{Name: k}
	var n *svcNode
	var key, val *yaml.Node
	var item bool
	if v.file != "" {
		e.Loc = deploy.Loc{File: v.file, Line: v.line}
	} else if n, key, val, item = r.idx.envNode(svc, k); key != nil {
		e.Loc = deploy.Loc{File: n.file, Line: itemLine(r.files[n.file], r.blocksOf(n.file), key)}
	} else {
		e.Loc = r.idx.attrLoc(svc, "environment")
	}
	if v.value == nil {
		e.Unknown = "no value in the compose files or .env: docker compose takes it from the shell that runs it"
		return e
	}
	e.Value = *v.value
	if k == "FLINK_PROPERTIES" {
		e.Text = r.flinkProperties(e, n, key, val, item)
	}
	return e
}

// flinkProperties is the text FLINK_PROPERTIES holds: the lines the
// official Flink image's docker-entrypoint.sh appends to
// $FLINK_HOME/conf/flink-conf.yaml before envsubst runs over the file
// (images up to 1.18: apache/flink-docker dev-1.18 prepare_configuration);
// from 1.19 it deletes each line's white space, splits it at the first
// ':' and passes -Dkey=value to bin/config-parser-utils.sh, which writes
// flink-conf.yaml if present, else config.yaml (dev-1.19
// process_flink_properties). Which file that is, is the resolver's: the
// Text has no Path. It is Exact when the compose file holds it
// as a literal block scalar whose content is the value compose gives the
// container (no interpolation changed it): as the value of an
// environment mapping (FLINK_PROPERTIES: |), or as a list item `- |`
// whose first line is FLINK_PROPERTIES= alone (the form of Flink's
// docker documentation).
func (r *reader) flinkProperties(e deploy.EnvVar, n *svcNode, key, val *yaml.Node, item bool) *deploy.Text {
	const name = "flink-conf.yaml"
	plain := &deploy.Text{Name: name, Container: e.Loc.File, Loc: e.Loc, Src: []byte(e.Value)}
	if n == nil {
		return plain
	}
	src, blocks := r.files[n.file], r.blocksOf(n.file)
	if !item {
		if val.Value != e.Value {
			return plain // interpolated
		}
		return blocks.Text(name, key, val)
	}
	const prefix = "FLINK_PROPERTIES="
	s, ok := blocks.Literal(nil, val)
	if !ok || !strings.HasPrefix(val.Value, prefix+"\n") || val.Value[len(prefix):] != e.Value ||
		!bytes.HasPrefix(src[s.Start:s.End], []byte(prefix)) {
		return plain
	}
	// The text starts on the line after FLINK_PROPERTIES=, at its
	// indentation (a blank line: at its line break), and holds a line that
	// is not blank.
	next := s.Start + len(prefix)
	next += lineBreak(src[next:])
	if len(bytes.TrimSpace(src[next:s.End])) == 0 {
		return plain
	}
	s.Start = next + min(len(s.Indent), len(src[next:s.End])-len(bytes.TrimLeft(src[next:s.End], " ")))
	blocks.Exact(plain, s)
	return plain
}

// blocksOf is the block scalar locator of the file read as file.
func (r *reader) blocksOf(file string) *deploy.Blocks {
	b, ok := r.blocks[file]
	if !ok {
		b = deploy.NewBlocks(file, r.files[file])
		r.blocks[file] = b
		r.blockFiles = append(r.blockFiles, file)
	}
	return b
}

// lineBreak is the length of the line break b starts with.
func lineBreak(b []byte) int {
	switch {
	case bytes.HasPrefix(b, []byte("\r\n")):
		return 2
	case len(b) > 0 && (b[0] == '\n' || b[0] == '\r'):
		return 1
	}
	return 0
}

// itemLine is the line of an environment key or list item: for a list
// item written as a block scalar (`- |` then NAME=... on the next line,
// as Flink's docker documentation writes FLINK_PROPERTIES), the line
// that names the variable.
func itemLine(src []byte, blocks *deploy.Blocks, n *yaml.Node) int {
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		if s, ok := blocks.Literal(nil, n); ok {
			// The first line that is not blank.
			return blocks.Line(s.Start + len(src[s.Start:s.End]) - len(bytes.TrimLeft(src[s.Start:s.End], " \r\n")))
		}
		if n.Line < breaks(src)+1 && strings.TrimSpace(n.Value) != "" {
			return n.Line + 1 // folded: the name starts the next line
		}
	}
	return n.Line
}

// breaks counts the line breaks of b.
func breaks(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\r':
			n++
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
		case '\n':
			n++
		}
	}
	return n
}

// mounts are the service's volumes (bind mounts, named and anonymous
// volumes, tmpfs) and its tmpfs: paths.
func (r *reader) mounts(p *types.Project, s types.ServiceConfig) []deploy.Mount {
	var out []deploy.Mount
	for _, v := range s.Volumes {
		loc := r.volumeLoc(s.Name, v.Target)
		m := deploy.Mount{Path: v.Target, ReadOnly: v.ReadOnly, Loc: loc}
		vol := deploy.Volume{Loc: loc}
		switch v.Type {
		case types.VolumeTypeBind:
			vol.Kind, vol.Path = r.bindSource(v.Source)
		case types.VolumeTypeVolume:
			vol = r.volumeSource(p, v, loc)
			if v.Volume != nil && vol.Name != "" {
				m.SubPath = v.Volume.Subpath
			}
		case types.VolumeTypeTmpfs:
			vol.Kind = deploy.VolumeEmpty
		default:
			vol.Kind, vol.Name = deploy.VolumeOther, v.Source
		}
		m.Volume = vol
		out = append(out, m)
	}
	for _, t := range s.Tmpfs {
		target := t
		if i := strings.IndexByte(t, ':'); i >= 0 {
			target = t[:i] // tmpfs: /run:size=64m
		}
		loc := r.idx.attrLoc(s.Name, "tmpfs")
		out = append(out, deploy.Mount{Path: target, Loc: loc, Volume: deploy.Volume{Kind: deploy.VolumeEmpty, Loc: loc}})
	}
	return out
}

// bindSource is a bind mount's source: a repository path (relative to
// the compose file's directory) or a host path.
func (r *reader) bindSource(src string) (kind, hostOrRepoPath string) {
	if path.IsAbs(src) || strings.HasPrefix(src, "~") || hasVariable(src) {
		return deploy.VolumeHost, src
	}
	if disp := path.Join(r.dir, src); r.inside(disp) {
		return deploy.VolumeRepo, disp
	}
	return deploy.VolumeHost, src
}

// volumeSource is the volume of a `type: volume` mount at loc: named
// (NFS by its driver_opts), anonymous, or a host path compose-go took for
// a name.
func (r *reader) volumeSource(p *types.Project, v types.ServiceVolumeConfig, loc deploy.Loc) deploy.Volume {
	vol := deploy.Volume{Loc: loc}
	switch {
	case hasVariable(v.Source):
		// ${HOME}/data with HOME unknown: compose-go sees a volume name
		// where docker compose, with the shell's value, would bind-mount
		// a host path.
		vol.Kind, vol.Path = deploy.VolumeHost, v.Source
	case v.Source == "":
		vol.Kind = deploy.VolumeEmpty // an anonymous volume: the container's own
	default:
		vol.Kind, vol.Name = deploy.VolumeNamed, v.Source
		if c, ok := p.Volumes[v.Source]; ok {
			if t := c.DriverOpts["type"]; t == "nfs" || t == "nfs4" {
				// driver_opts of the local driver mount NFS on every
				// container that uses the volume (docker volume create
				// --opt type=nfs).
				vol.Kind = deploy.VolumeNFS
			}
		}
		vol.Loc = r.volumeDecl(v.Source, loc)
	}
	return vol
}

// volumeLoc is the line of the volumes: item of service name that mounts
// at target (compose-go merges volumes by target).
func (r *reader) volumeLoc(name, target string) deploy.Loc {
	for _, c := range r.idx.candidates(name) {
		_, vols := lookup(c.val, "volumes")
		if vols == nil || vols.Kind != yaml.SequenceNode {
			continue
		}
		for _, it := range vols.Content {
			it = resolve(it)
			var t string
			switch it.Kind {
			case yaml.ScalarNode:
				spec, err := r.env.substitute(it.Value, func(k string) (string, bool) {
					v, ok := r.env.vars[k]
					return v, ok
				})
				if err != nil {
					continue
				}
				if v, err := format.ParseVolume(spec); err == nil {
					t = v.Target
				}
			case yaml.MappingNode:
				if _, tv := lookup(it, "target"); tv != nil {
					t = tv.Value
				}
			}
			if t != "" && path.Clean(t) == target {
				return deploy.Loc{File: c.file, Line: it.Line}
			}
		}
	}
	return r.idx.attrLoc(name, "volumes")
}

// volumeDecl is the line of the top-level declaration of named volume
// name, else fallback.
func (r *reader) volumeDecl(name string, fallback deploy.Loc) deploy.Loc {
	for i := len(r.idx.files) - 1; i >= 0; i-- {
		f := r.idx.files[i]
		if k := r.idx.volumes[f][name]; k != nil {
			return deploy.Loc{File: f, Line: k.Line}
		}
	}
	return fallback
}
