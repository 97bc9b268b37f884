package discover

import (
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/ckptlint/ckptlint/internal/format"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// prefetchWindow bounds how many entries the prefetcher runs ahead of the
// walk, so at most that many files' bytes (each up to parsed.MaxFileSize)
// wait for the walk at once.
const prefetchWindow = 64

// prefetchBytes bounds the bytes read ahead that the walk has not taken:
// past it, a worker starts a read only for the entry the walk waits for, so
// at most prefetchBytes plus one file per worker (parsed.MaxFileSize each)
// are held ahead, however large the files of a hostile tree. Tests lower
// it.
var prefetchBytes int64 = 4 << 20

// prefetchWorkers read files for the prefetcher.
const prefetchWorkers = 2

// prefetchOn turns the prefetcher on; tests compare walks without it.
var prefetchOn = true

// ahead is what the prefetcher did for one entry of the walk, in walk
// order: the listing of a directory the walk enters (list), or the check
// and read of a regular file the walk reads (read); neither for any other
// entry. done is closed once it is done; nothing is charged to the budget.
type ahead struct {
	path       string // as the walk names it
	seq        int    // its place in walk order, from 1
	abs        string // a read's path, as Add passes it to read
	list, read bool
	done       chan struct{}
	entries    []fs.DirEntry // list: FS.ReadDir
	real       string        // read: Check's real path
	src        []byte        // read: the bytes read
	err        error         // ReadDir's, or Check's or the read's
}

// prefetcher walks one root of the walk ahead of it, on its own goroutine,
// in the walk's order (walkEntry) and by its rules (visit: skipDirs,
// Ignored, which files Add reads), listing every directory the walk
// enters and handing every regular file it reads to prefetchWorkers, which
// Check and read it as read does, through the same FS and boundary. The
// walk takes one ahead per entry (next) and decides everything itself:
// notes, the budget, what is kept.
type prefetcher struct {
	d     *Tree
	root  string
	order chan *ahead // to the walk, in walk order
	work  chan *ahead // reads, to the workers
	stop  chan struct{}
	once  sync.Once
	off   bool // the walk reads alone (after stop)
	seq   int  // the producer's last ahead

	mu      sync.Mutex
	cond    *sync.Cond // signalled when the walk takes an ahead or stops
	held    int64      // bytes read that the walk has not taken
	taken   int        // the seq of the walk's last ahead
	stopped bool
}

// startPrefetch starts prefetching the walk of root, whose entry (its
// Lstat) is e.
func (d *Tree) startPrefetch(root string, e fs.DirEntry) *prefetcher {
	if !prefetchOn {
		return nil
	}
	p := &prefetcher{d: d, root: root, order: make(chan *ahead, prefetchWindow), work: make(chan *ahead, prefetchWindow), stop: make(chan struct{})}
	p.cond = sync.NewCond(&p.mu)
	go func() {
		defer close(p.work)
		defer close(p.order)
		p.entry(root, e)
	}()
	for range prefetchWorkers {
		go p.worker()
	}
	return p
}

// entry prefetches path, an entry e of the walk, and what is below it;
// false once the walk stopped.
func (p *prefetcher) entry(path string, e fs.DirEntry) bool {
	p.seq++
	a := &ahead{path: path, seq: p.seq, done: make(chan struct{})}
	a.list = e.IsDir() && (path == p.root || !skipDirs[e.Name()] && !p.d.isIgnored(path))
	if !a.list && e.Type().IsRegular() {
		a.abs, a.read = p.d.walkReads(path)
	}
	if !p.send(p.order, a) || a.read && !p.send(p.work, a) {
		return false
	}
	if !a.list {
		if !a.read {
			close(a.done)
		}
		return true
	}
	a.entries, a.err = p.d.fs.ReadDir(path)
	close(a.done)
	if a.err != nil {
		return true // visit skips it (or ends the walk, for the root)
	}
	for _, sub := range a.entries {
		if !p.entry(filepath.Join(path, sub.Name()), sub) {
			return false
		}
	}
	return true
}

func (p *prefetcher) send(c chan<- *ahead, a *ahead) bool {
	select {
	case c <- a:
		return true
	case <-p.stop:
		return false
	}
}

// worker checks and reads files as read does, without the budget.
func (p *prefetcher) worker() {
	for a := range p.work {
		if !p.mayRead(a) {
			close(a.done) // the walk stopped: it takes no more
			continue
		}
		if a.real, a.err = p.d.Check(a.abs); a.err == nil {
			a.src, _, a.err = p.d.readReal(a.real, parsed.MaxFileSize)
		}
		if a.err != nil {
			a.real = ""
		}
		p.mu.Lock()
		p.held += int64(len(a.src))
		p.mu.Unlock()
		close(a.done)
	}
}

// mayRead waits until a may be read: while less than prefetchBytes are
// held, or when the walk waits for a itself (so it never waits on a read
// that waits on it); false once the walk stopped.
func (p *prefetcher) mayRead(a *ahead) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.held >= prefetchBytes && a.seq != p.taken+1 && !p.stopped {
		p.cond.Wait()
	}
	return !p.stopped
}

// walkReads reports whether visit, given a regular file (not a symlink)
// at path, has Add read it (from the walk's FS, not the overlay), and
// the path read is passed then. A file Add finds in the Tree already is
// not read again; the prefetcher reads it anyway, which gives the same
// answer for the same path (a Recorder keeps the first).
func (d *Tree) walkReads(path string) (string, bool) {
	if d.isIgnored(path) {
		return "", false
	}
	abs, err := inputfs.AbsFrom(d.cwd, filepath.Clean(path))
	if err != nil {
		return "", false
	}
	if _, ok := d.overlay[abs]; ok {
		return "", false
	}
	base, kind := nameAndKind(abs)
	return abs, format.MayBe(base) || isSource(kind) // as Add decides
}

// next is the ahead of the walk's next entry, path, once it is done; nil
// without a prefetcher. The prefetcher follows the walk's rules, so its
// order is the walk's; should it ever differ, it is stopped and the walk
// reads alone.
func (p *prefetcher) next(path string) *ahead {
	if p == nil || p.off {
		return nil
	}
	a, ok := <-p.order
	if !ok || a.path != path {
		p.close()
		return nil
	}
	<-a.done
	p.mu.Lock()
	p.taken, p.held = a.seq, p.held-int64(len(a.src))
	p.cond.Broadcast()
	p.mu.Unlock()
	return a
}

// close stops the prefetcher (the walk ended, or ended early).
func (p *prefetcher) close() {
	if p == nil {
		return
	}
	p.off = true
	p.once.Do(func() {
		close(p.stop)
		p.mu.Lock()
		p.stopped = true
		p.cond.Broadcast()
		p.mu.Unlock()
	})
}

// take returns the read prefetched for path, when the entry the walk
// visits is that file.
func (d *Tree) take(path string) (*ahead, bool) {
	a := d.pending
	if a == nil || !a.read || a.abs != path {
		return nil, false
	}
	d.pending = nil
	return a, true
}
