package compose

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// Bounds on aliases, as the repository's other YAML readers bound them
// (internal/format/flinkyaml alias.go, docs/security.md): what aliases
// make a reader produce again is refused past 10,000 nodes or 1 MiB of
// text, before compose-go expands them into its maps.
const (
	maxAliasNodes = 10000
	maxAliasBytes = 1 << 20
)

// svcNode is a service as one compose file writes it.
type svcNode struct {
	name string
	file string     // display path
	key  *yaml.Node // the service's key in services:
	val  *yaml.Node // its mapping
	// base is the service it extends, nil when none (or not followed).
	base *svcNode
}

// index locates what compose-go's model holds in the compose files.
type index struct {
	files []string
	// services by compose file, by name.
	services map[string]map[string]*svcNode
	// hidden are the base services of extends.file inlined under names of
	// their own (inline), by that name; they are no workloads.
	hidden map[string]bool
	bases  map[string]*svcNode // by hidden name
	// volumes are the top-level volumes: declarations, by file, by name.
	volumes map[string]map[string]*yaml.Node
	docs    map[string][]*yaml.Node
}

// index parses the compose files with yaml.v3 for positions, within the
// alias bounds, notes what compose-go would read from disk by itself
// (include:) and inlines the base services extends.file names (inline).
// It returns the bytes to hand to compose-go, false when a file cannot be
// read at all.
func (r *reader) index(files []string) (*index, [][]byte, bool) {
	idx := &index{files: files, services: map[string]map[string]*svcNode{}, hidden: map[string]bool{},
		bases: map[string]*svcNode{}, volumes: map[string]map[string]*yaml.Node{}, docs: map[string][]*yaml.Node{}}
	r.idx = idx
	var contents [][]byte
	for _, f := range files {
		docs, err := parseDocs(f, r.files[f])
		if err != nil {
			r.note("%s", err)
			return nil, nil, false
		}
		idx.docs[f] = docs
		idx.services[f] = map[string]*svcNode{}
		idx.volumes[f] = map[string]*yaml.Node{}
		for _, d := range docs {
			idx.add(f, d)
		}
	}
	for _, f := range files {
		src := r.files[f]
		if r.inlineBases(f) {
			b, err := encodeDocs(idx.docs[f])
			if err != nil {
				r.note("%s: not read: %v", f, err)
				return nil, nil, false
			}
			src = b
		}
		contents = append(contents, src)
	}
	return idx, contents, true
}

// inlineBases notes the include: of file f and inlines the extends.file
// bases of its services; it reports whether it changed the documents.
func (r *reader) inlineBases(f string) bool {
	changed := false
	for _, d := range r.idx.docs[f] {
		root := mappingOf(d)
		if root == nil {
			continue
		}
		if k, _ := lookup(root, "include"); k != nil {
			r.note("%s:%d: include: is not followed: compose-go reads the included files from disk itself; their services are not read", f, k.Line)
		}
		_, svcs := lookup(root, "services")
		if svcs == nil || svcs.Kind != yaml.MappingNode {
			continue
		}
		in := &inliner{r: r, svcs: svcs, done: map[string]string{}}
		for i := 0; i+1 < len(svcs.Content); i += 2 {
			name := svcs.Content[i].Value
			if n := r.idx.services[f][name]; n != nil && in.service(f, n, 0) {
				changed = true
			}
		}
	}
	return changed
}

// encodeDocs is the YAML of the documents of a file.
func encodeDocs(docs []*yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			return nil, err
		}
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// parseDocs decodes every document of a file, within the alias bounds.
func parseDocs(f string, src []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var docs []*yaml.Node
	for {
		var d yaml.Node
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: not read: %s", f, strings.TrimPrefix(err.Error(), "yaml: "))
		}
		if err := checkAliases(f, &d); err != nil {
			return nil, err
		}
		docs = append(docs, &d)
	}
	return docs, nil
}

// checkAliases refuses a document whose aliases repeat more than
// maxAliasNodes nodes or maxAliasBytes of text.
func checkAliases(f string, d *yaml.Node) error {
	type size struct{ nodes, bytes int }
	memo := map[*yaml.Node]size{}
	var sizeOf func(n *yaml.Node, depth int) size
	sizeOf = func(n *yaml.Node, depth int) size {
		if s, ok := memo[n]; ok {
			return s
		}
		memo[n] = size{maxAliasNodes + 1, 0} // a cycle counts as too much
		s := size{1, len(n.Value)}
		if depth > 1000 {
			s.nodes = maxAliasNodes + 1
		}
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			s = sizeOf(n.Alias, depth+1)
		}
		for _, c := range n.Content {
			cs := sizeOf(c, depth+1)
			s.nodes = min(s.nodes+cs.nodes, maxAliasNodes+1)
			s.bytes = min(s.bytes+cs.bytes, maxAliasBytes+1)
		}
		memo[n] = s
		return s
	}
	var total size
	var walk func(n *yaml.Node) error
	walk = func(n *yaml.Node) error {
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			s := sizeOf(n.Alias, 0)
			total.nodes += s.nodes
			total.bytes += s.bytes
			if total.nodes > maxAliasNodes || total.bytes > maxAliasBytes {
				return fmt.Errorf("%s:%d: not read: aliases repeat more than %d nodes or %d bytes of text: ckptlint refuses this as an alias bomb", f, n.Line, maxAliasNodes, maxAliasBytes)
			}
			return nil
		}
		for _, c := range n.Content {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(d)
}

// add indexes one document of file f.
func (idx *index) add(f string, d *yaml.Node) {
	root := mappingOf(d)
	if root == nil {
		return
	}
	if _, svcs := lookup(root, "services"); svcs != nil {
		svcs = resolve(svcs)
		for i := 0; svcs.Kind == yaml.MappingNode && i+1 < len(svcs.Content); i += 2 {
			k, v := svcs.Content[i], resolve(svcs.Content[i+1])
			if v.Kind != yaml.MappingNode {
				continue
			}
			idx.services[f][k.Value] = &svcNode{name: k.Value, file: f, key: k, val: v}
		}
		// extends within the file.
		for _, n := range idx.services[f] {
			if base := sameFileBase(n.val); base != "" {
				n.base = idx.services[f][base]
			}
		}
	}
	if _, vols := lookup(root, "volumes"); vols != nil && vols.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(vols.Content); i += 2 {
			idx.volumes[f][vols.Content[i].Value] = vols.Content[i]
		}
	}
}

// sameFileBase is the service a service's extends names in its own file
// (`extends: name`, or a mapping without file:), "" otherwise.
func sameFileBase(svc *yaml.Node) string {
	_, ext := lookup(svc, "extends")
	if ext == nil {
		return ""
	}
	ext = resolve(ext)
	if ext.Kind == yaml.ScalarNode {
		return ext.Value
	}
	if _, file := lookup(ext, "file"); file != nil {
		return ""
	}
	if _, s := lookup(ext, "service"); s != nil && s.Kind == yaml.ScalarNode {
		return s.Value
	}
	return ""
}

// inliner puts the base services extends.file names into the services:
// of the file that extends them, under names of their own
// (ckptlint-extends-N), and points the extends at them: compose-go's
// loader then merges them by its own rules (override.ExtendService),
// where it would otherwise read the file from disk itself
// (loader/extends.go getExtendsBaseFromFile). A base service with paths
// relative to its own directory (build, env_file, bind mounts) in
// another directory than the project is not followed: compose resolves
// them against that directory, which the inlined copy would not.
type inliner struct {
	r    *reader
	svcs *yaml.Node        // the services: mapping the bases go into
	done map[string]string // file+"\x00"+service → hidden name, "" while in progress
}

// service inlines the extends.file base of n (and of its bases); it
// reports whether it changed the document.
func (in *inliner) service(f string, n *svcNode, depth int) bool {
	k, ext := lookup(n.val, "extends")
	if ext == nil || ext.Kind != yaml.MappingNode {
		return false
	}
	fk, fv := lookup(ext, "file")
	if fv == nil {
		return false
	}
	_, sv := lookup(ext, "service")
	at := fmt.Sprintf("%s:%d", f, fk.Line)
	drop := func(why string, a ...any) bool {
		in.r.note("%s: extends.file %s: %s: service %s is read without the service it extends", at, fv.Value, fmt.Sprintf(why, a...), n.name)
		removeKey(n.val, k)
		return true
	}
	if sv == nil || sv.Kind != yaml.ScalarNode || fv.Kind != yaml.ScalarNode {
		return drop("not a file and a service")
	}
	if depth >= maxExtendsDepth {
		return drop("more than %d files deep", maxExtendsDepth)
	}
	file, err := in.r.env.substitute(fv.Value, func(k string) (string, bool) {
		v, ok := in.r.env.vars[k]
		return v, ok
	})
	if err != nil || hasVariable(file) {
		return drop("the path holds a variable .env does not define")
	}
	if path.IsAbs(file) || strings.HasPrefix(file, "~") {
		return drop("outside the repository, not read")
	}
	target := path.Join(in.r.dir, file)
	hidden, why := in.base(target, sv.Value, depth)
	if hidden == "" {
		return drop("%s", why)
	}
	base := in.r.idx.bases[hidden]
	n.base = base
	// extends: {service: <hidden>}
	removeKey(ext, fk)
	sv.Value, sv.Tag, sv.Style = hidden, "!!str", 0
	return true
}

// base inlines service name of file target and returns its hidden name,
// or "" and why not.
func (in *inliner) base(target, name string, depth int) (string, string) {
	key := target + "\x00" + name
	if h, ok := in.done[key]; ok {
		if h == "" {
			return "", "extends itself in a cycle"
		}
		return h, ""
	}
	in.done[key] = ""
	src, _, err := in.r.readOther(target)
	if err != nil {
		return "", err.Error()
	}
	docs, err := parseDocs(target, src)
	if err != nil {
		return "", err.Error()
	}
	var found *svcNode
	for _, d := range docs {
		root := mappingOf(d)
		if root == nil {
			continue
		}
		if _, svcs := lookup(root, "services"); svcs != nil && svcs.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(svcs.Content); i += 2 {
				if svcs.Content[i].Value == name {
					found = &svcNode{name: name, file: target, key: svcs.Content[i], val: resolve(svcs.Content[i+1])}
				}
			}
		}
	}
	if found == nil || found.val.Kind != yaml.MappingNode {
		return "", fmt.Sprintf("%s holds no service %s", target, name)
	}
	if path.Dir(target) != in.r.dir && relativePaths(found.val) {
		return "", fmt.Sprintf("%s lies in another directory and service %s has paths relative to it", target, name)
	}
	hidden := fmt.Sprintf("ckptlint-extends-%d", len(in.r.idx.bases)+1)
	in.r.idx.hidden[hidden] = true
	in.r.idx.bases[hidden] = found
	clone := expand(found.val)
	// The base's own extends: within its file, or a further file.
	if b := sameFileBase(found.val); b != "" {
		h, why := in.base(target, b, depth+1)
		k, _ := lookup(clone, "extends")
		if h == "" {
			in.r.note("%s:%d: extends %s: %s: read without it", target, found.key.Line, b, why)
			removeKey(clone, k)
		} else {
			found.base = in.r.idx.bases[h]
			setExtends(clone, h)
		}
	} else if _, ext := lookup(found.val, "extends"); ext != nil {
		tmp := &svcNode{name: name, file: target, val: clone}
		in.service(target, tmp, depth+1)
		found.base = tmp.base
	}
	in.svcs.Content = append(in.svcs.Content,
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: hidden}, clone)
	in.done[key] = hidden
	return hidden, ""
}

// relativePaths reports whether a service names a path that compose
// resolves against its file's directory.
func relativePaths(svc *yaml.Node) bool {
	rel := func(s string) bool { return s != "" && !path.IsAbs(s) && !strings.HasPrefix(s, "~") }
	for i := 0; i+1 < len(svc.Content); i += 2 {
		v := resolve(svc.Content[i+1])
		switch svc.Content[i].Value {
		case "build", "env_file", "label_file", "extends":
			return true
		case "volumes":
			for _, item := range v.Content {
				item = resolve(item)
				if item.Kind == yaml.ScalarNode && (strings.HasPrefix(item.Value, ".") || strings.HasPrefix(item.Value, "$")) {
					return true
				}
				if _, s := lookup(item, "source"); s != nil && rel(s.Value) && strings.HasPrefix(s.Value, ".") {
					return true
				}
			}
		}
	}
	return false
}

// hasVariable reports whether s still holds a variable reference.
func hasVariable(s string) bool { return strings.Contains(s, "$") }

// expand is a deep copy of n with every alias replaced by a copy of what
// it names: the copy goes into another document, where the anchors are
// not (checkAliases bounded what this repeats).
func expand(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return expand(n.Alias)
	}
	c := *n
	c.Anchor = ""
	c.Content = nil
	for _, x := range n.Content {
		c.Content = append(c.Content, expand(x))
	}
	return &c
}

func setExtends(svc *yaml.Node, name string) {
	k, _ := lookup(svc, "extends")
	removeKey(svc, k)
	svc.Content = append(svc.Content,
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "extends"},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name})
}

// removeKey removes key k (and its value) from mapping m.
func removeKey(m, k *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i] == k {
			m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
			return
		}
	}
}

func mappingOf(d *yaml.Node) *yaml.Node {
	if d.Kind == yaml.DocumentNode && len(d.Content) == 1 {
		d = d.Content[0]
	}
	d = resolve(d)
	if d.Kind != yaml.MappingNode {
		return nil
	}
	return d
}

func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// lookup finds key k of mapping m (the last one, as YAML decoders keep),
// also through a merge key (<<: *anchor) when m does not set it itself.
func lookup(m *yaml.Node, k string) (*yaml.Node, *yaml.Node) {
	return lookupDepth(m, k, 0)
}

func lookupDepth(m *yaml.Node, k string, depth int) (key, val *yaml.Node) {
	m = resolve(m)
	if m == nil || m.Kind != yaml.MappingNode || depth > 20 {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == k && m.Content[i].Tag != "!!merge" {
			key, val = m.Content[i], resolve(m.Content[i+1])
		}
	}
	if key != nil {
		return key, val
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Tag != "!!merge" {
			continue
		}
		v := resolve(m.Content[i+1])
		srcs := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			srcs = v.Content
		}
		for _, s := range srcs {
			if kk, vv := lookupDepth(s, k, depth+1); kk != nil {
				return kk, vv
			}
		}
	}
	return nil, nil
}

// candidates are the nodes that write service name, the one compose-go's
// merge takes first before the others: the last compose file's service,
// the services it extends, then the file before it, and so on.
func (idx *index) candidates(name string) []*svcNode {
	var out []*svcNode
	for i := len(idx.files) - 1; i >= 0; i-- {
		for n, d := idx.services[idx.files[i]][name], 0; n != nil && d < maxExtendsDepth+8; n, d = n.base, d+1 {
			out = append(out, n)
		}
	}
	return out
}

// serviceLoc is where a service is declared: its key in the first
// compose file that has it.
func (idx *index) serviceLoc(name string) deploy.Loc {
	for _, f := range idx.files {
		if n := idx.services[f][name]; n != nil {
			return deploy.Loc{File: f, Line: n.key.Line}
		}
	}
	if n := idx.bases[name]; n != nil {
		return deploy.Loc{File: n.file, Line: n.key.Line}
	}
	return deploy.Loc{File: idx.files[0]}
}

// attr finds the attribute at keys (a path of mapping keys) of service
// name in the node compose-go's merge takes it from.
func (idx *index) attr(name string, keys ...string) (*svcNode, *yaml.Node, *yaml.Node) {
	for _, n := range idx.candidates(name) {
		var k *yaml.Node
		v := n.val
		for _, key := range keys {
			k, v = lookup(v, key)
			if k == nil {
				break
			}
		}
		if k != nil {
			return n, k, v
		}
	}
	return nil, nil, nil
}

// attrLoc is the line of an attribute, or the service's when no node has
// it (a default).
func (idx *index) attrLoc(name string, keys ...string) deploy.Loc {
	if n, k, _ := idx.attr(name, keys...); k != nil {
		return deploy.Loc{File: n.file, Line: k.Line}
	}
	return idx.serviceLoc(name)
}

var servicePath = regexp.MustCompile(`services\.([A-Za-z0-9._-]+)`)

// locate finds the line a compose-go error message names
// (services.NAME.ATTR...: the deepest key of the path the files write),
// when it names one.
func (idx *index) locate(msg string) (deploy.Loc, bool) {
	for _, m := range servicePath.FindAllStringSubmatch(msg, -1) {
		parts := strings.Split(strings.TrimRight(m[1], "."), ".")
		// A service name may hold dots: the longest that is one.
		for i := len(parts); i > 0; i-- {
			name := strings.Join(parts[:i], ".")
			for _, c := range idx.candidates(name) {
				line, v := c.key.Line, c.val
				for _, k := range parts[i:] {
					kk, vv := lookup(v, k)
					if kk == nil {
						break
					}
					line, v = kk.Line, vv
				}
				return deploy.Loc{File: c.file, Line: line}, true
			}
		}
	}
	return deploy.Loc{}, false
}

// firstUse is where a variable is first referenced in the compose files.
func (idx *index) firstUse(name string) deploy.Loc {
	re := regexp.MustCompile(`\$(\{` + regexp.QuoteMeta(name) + `[}:?+-]|` + regexp.QuoteMeta(name) + `\b)`)
	for _, f := range idx.files {
		for _, d := range idx.docs[f] {
			if l := findScalar(d, re, 0); l > 0 {
				return deploy.Loc{File: f, Line: l}
			}
		}
	}
	return deploy.Loc{File: idx.files[0]}
}

func findScalar(n *yaml.Node, re *regexp.Regexp, depth int) int {
	if depth > 200 {
		return 0
	}
	if n.Kind == yaml.ScalarNode && re.MatchString(n.Value) {
		return n.Line
	}
	for _, c := range n.Content {
		if l := findScalar(c, re, depth+1); l > 0 {
			return l
		}
	}
	return 0
}
