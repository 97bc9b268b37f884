package lint

import (
	"iter"
	"path/filepath"

	"github.com/ckptlint/ckptlint/lint/evaluate"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/suppress"
)

// sourceNotes is what a run keeps of each set once it is done, for the
// reporters and, in a streaming run (Options.Release), the ignore
// comments: the bytes of every file a finding names (Result.Sources, for
// snippets and columns: a set's file as the run read it, any other file,
// such as an xi:include target, read again as the result cache reads
// it), and the sources evaluate.Ignores would read, less those that do
// not mention ckptlint (suppress.Mentions: no directive and no problem
// in them, so leaving them out changes nothing).
type sourceNotes struct {
	overlay map[string][]byte
	mayRead func(abs string) bool // the run's boundary (discover.Tree MayRead)
	// kept are the bytes discovery read of a file whose parsed form does
	// not hold them (discover.Tree Kept).
	kept func(disp string) []byte
	srcs []evaluate.Source
	// bytes are Result.Sources; mentions holds the bytes of the sets'
	// files that mention ckptlint, which an ignore problem (CKPT001,
	// CKPT002) or a suppressed finding may name once every set is done.
	bytes, mentions map[string][]byte
	// first are the bytes of a path's first source (add), nil when they
	// do not mention ckptlint.
	first map[string][]byte
}

// namedSets are sets holding only the names given: one array for all, as
// a model.Set is 240 bytes, most of them unused here.
func namedSets(names []string) []*model.Set {
	named := make([]model.Set, len(names))
	sets := make([]*model.Set, len(names))
	for i, n := range names {
		named[i].Name = n
		sets[i] = &named[i]
	}
	return sets
}

// namedFiles lists the files fs name.
func namedFiles(fs []finding.Finding) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, f := range fs {
			if !yield(f.Range.File) {
				return
			}
		}
	}
}

// add notes the sources of s and those of its files that named lists
// (the files its findings name); ignores is false when inline ignores
// are not read.
func (n *sourceNotes) add(s *model.Set, named iter.Seq[string], ignores bool) {
	for _, f := range s.Files() {
		// An ignore problem (CKPT001, CKPT002) may name a file of the set
		// that none of its findings names (named).
		if _, ok := n.mentions[f.Path]; !ok && suppress.Mentions(f.Src) {
			if n.mentions == nil {
				n.mentions = map[string][]byte{}
			}
			n.mentions[f.Path] = f.Src
		}
	}
	for path := range named {
		if _, ok := n.bytes[path]; ok || path == "" {
			continue
		}
		n.bytes[path] = n.fileBytes(s, path)
	}
	if !ignores {
		return
	}
	for _, src := range evaluate.Sources([]*model.Set{s}, n.overlay) {
		var own []byte // a set's own file's bytes, when they mention ckptlint
		if !src.Included {
			if b := src.Src(); suppress.Mentions(b) {
				own = b
			}
		}
		// evaluate.IgnoresIn reads the bytes of a path's first source;
		// first remembers them for an xi:include target (read from disk,
		// once) and for a file that mentions ckptlint. A set's own file
		// that does not is looked at again each time (its bytes are in
		// memory) rather than remembered: there are as many as files.
		b, seen := n.first[src.Path]
		if !seen {
			b = own
			if src.Included {
				if b = src.Src(); !suppress.Mentions(b) {
					b = nil
				}
			}
			if b != nil || src.Included {
				if n.first == nil {
					n.first = map[string][]byte{}
				}
				n.first[src.Path] = b
			}
		}
		if b != nil {
			src.Src = func() []byte { return b }
			n.srcs = append(n.srcs, src)
		}
	}
}

// fileBytes are the bytes of the file at display path. One of s's files
// is never read again: its bytes as read, or those discovery kept of a
// file refused for its content (Kept), or nil for one the run did not
// read (outside the repository, too large, over the run's input budget,
// unreadable). Any other file is read now (read).
func (n *sourceNotes) fileBytes(s *model.Set, path string) []byte {
	for _, f := range s.Files() {
		if f.Path != path {
			continue
		}
		if f.Src == nil && n.kept != nil {
			return evaluate.Text(path, n.kept(path)) // as a cached run reads it (fromEntry)
		}
		return f.Src
	}
	return n.read(path)
}

// read reads the file at display path, a file no set holds the bytes of
// that a finding names, as its text (evaluate.ReadSource), inside the
// run's boundary only; nil when it cannot be read. Such a file is one
// the run read (an xi:include target: a target the run did not read is a
// finding on the file including it; a version evidence file;
// .ckptlint.hcl), so what this reads is bounded by the run's input and
// evidence budgets, and the result cache reads the same files again
// (fromEntry).
func (n *sourceNotes) read(path string) []byte {
	abs, err := filepath.Abs(filepath.FromSlash(path))
	if err != nil || (n.mayRead != nil && !n.mayRead(abs)) {
		return nil
	}
	return evaluate.ReadSource(path, n.overlay)
}

// named adds to Result.Sources the files fs name that it does not hold
// yet (an ignore problem, CKPT001 or CKPT002, may name a file no finding
// of its set named): a set's file that mentions ckptlint as the set read
// it, any other read now.
func (n *sourceNotes) named(fs []finding.Finding) {
	for _, f := range fs {
		path := f.Range.File
		if _, ok := n.bytes[path]; ok || path == "" {
			continue
		}
		if b, ok := n.mentions[path]; ok {
			n.bytes[path] = b
		} else {
			n.bytes[path] = n.read(path)
		}
	}
}

// pendingFiles lists the files ps name.
func pendingFiles(ps []evaluate.Pending) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, p := range ps {
			if !yield(p.Range.File) {
				return
			}
		}
	}
}
