package lint

import (
	"path/filepath"

	"github.com/ckptlint/ckptlint/lint/evaluate"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/suppress"
)

// sourceNotes is what a run keeps of each set once it is done, for the
// reporters and the ignore comments: the bytes of the sets' files that
// mention ckptlint, which the last group (CKPT001, CKPT002) may name once
// every set is done, and, for the result cache's entry (keep), the ignore
// sources of every set. The bytes of the files a set's findings name come
// from the set itself while it is reported (fileBytes).
type sourceNotes struct {
	overlay map[string][]byte
	// readAgain reads a file again inside the run's boundary (discover.Tree
	// ReadAgain); nil reads it by its name (evaluate.ReadSource).
	readAgain func(abs string) ([]byte, bool)
	// kept are the bytes discovery read of a file whose parsed form does
	// not hold them (discover.Tree Kept).
	kept func(disp string) []byte
	// keep makes add keep every set's ignore sources in srcs (the result
	// cache's entry lists them).
	keep bool
	srcs []evaluate.Source
	// mentions holds the bytes of the sets' files that mention ckptlint;
	// read those of the other files read again (read), by display path.
	mentions, reads map[string][]byte
	// first are the bytes of a path's first source (add), nil when they
	// do not mention ckptlint.
	first map[string][]byte
	// asked and answer are the last bytes mentions looked at and whether
	// they mention ckptlint.
	asked  []byte
	answer bool
}

// mention is suppress.Mentions, remembering its answer for the bytes it
// was last asked about: the FlinkDeployments of one manifest share the
// manifest's bytes, and the set of each asks again (issue 25: a manifest of
// N deployments was searched N times per question).
func (n *sourceNotes) mention(b []byte) bool {
	if len(b) > 0 && len(b) == len(n.asked) && &b[0] == &n.asked[0] {
		return n.answer
	}
	n.asked, n.answer = b, suppress.Mentions(b)
	return n.answer
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

// add notes the files of s that mention ckptlint and returns the
// sources whose ignore comments apply to its findings: those the
// evaluate.Ignorer reads, less those that do not mention ckptlint
// (suppress.Mentions: no directive and no problem in them, so leaving
// them out changes nothing); none when ignores is false (inline ignores
// are not read).
func (n *sourceNotes) add(s *model.Set, ignores bool) []evaluate.Source {
	for _, f := range s.Files() {
		// An ignore problem (CKPT001, CKPT002) may name a file of the set
		// once every set is done (lastBytes).
		if _, ok := n.mentions[f.Path]; !ok && n.mention(f.Src) {
			if n.mentions == nil {
				n.mentions = map[string][]byte{}
			}
			n.mentions[f.Path] = f.Src
		}
	}
	if !ignores {
		return nil
	}
	var out []evaluate.Source
	for _, src := range evaluate.Sources([]*model.Set{s}, n.overlay) {
		var own []byte // a set's own file's bytes, when they mention ckptlint
		if !src.Included {
			if b := src.Src(); n.mention(b) {
				own = b
			}
		}
		// The Ignorer reads the bytes of a path's first source; first
		// remembers them for an xi:include target (read from disk, once)
		// and for a file that mentions ckptlint. A set's own file that
		// does not is looked at again each time (its bytes are in memory)
		// rather than remembered: there are as many as files.
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
			out = append(out, src)
		}
	}
	if n.keep {
		n.srcs = append(n.srcs, out...)
	}
	return out
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
// that a finding names, as its text (evaluate.Text), inside the run's
// boundary only and below its root's handle (discover.Tree ReadAgain);
// nil when it cannot be read. Such a file is one
// the run read (an xi:include target: a target the run did not read is a
// finding on the file including it; a version evidence file;
// .ckptlint.hcl), so what this reads is bounded by the run's input and
// evidence budgets, and the result cache reads the same files again
// (fromEntry). Each is read once a run.
func (n *sourceNotes) read(path string) []byte {
	if b, ok := n.reads[path]; ok {
		return b
	}
	var b []byte
	if abs, err := filepath.Abs(filepath.FromSlash(path)); err == nil {
		if _, ok := n.overlay[abs]; ok || n.readAgain == nil {
			b = evaluate.ReadSource(path, n.overlay)
		} else if rb, ok := n.readAgain(abs); ok {
			b = evaluate.Text(path, rb)
		}
	}
	if n.reads == nil {
		n.reads = map[string][]byte{}
	}
	n.reads[path] = b
	return b
}

// lastBytes are the bytes of a file a finding of the last group names:
// a set's file that mentions ckptlint as the set read it, any other read
// now.
func (n *sourceNotes) lastBytes(path string) []byte {
	if b, ok := n.mentions[path]; ok {
		return b
	}
	return n.read(path)
}
