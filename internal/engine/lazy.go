package engine

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sync"
)

// Lazy holds the policy sources of a run and parses and compiles them only
// when asked: a run whose findings all come from the result cache
// (internal/cache, docs/cache.md) compiles nothing. Its Hash names the bundle
// (embedded and user policies, by file name and content), part of every
// cache key. It is safe for concurrent use.
type Lazy struct {
	opts Options
	srcs []source
	hash string

	loadOnce sync.Once
	loaded   *Engine
	loadErr  error

	compileOnce sync.Once
	compiled    *Engine
	compileErr  error

	rules []*Rule // metadata given by SetRules (from the cache)
}

// NewLazy reads the policy sources (no parsing).
func NewLazy(opts Options) (*Lazy, error) {
	srcs, err := readSources(opts)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	for _, s := range srcs {
		var n [8]byte
		for _, b := range [][]byte{[]byte(s.name), s.src} {
			binary.BigEndian.PutUint64(n[:], uint64(len(b)))
			h.Write(n[:])
			h.Write(b)
		}
		if s.user {
			h.Write([]byte{1})
		} else {
			h.Write([]byte{0})
		}
	}
	return &Lazy{opts: opts, srcs: srcs, hash: hex.EncodeToString(h.Sum(nil))}, nil
}

// Hash is the SHA-256 of the policy bundle, hex.
func (l *Lazy) Hash() string { return l.hash }

func (l *Lazy) load() (*Engine, error) {
	l.loadOnce.Do(func() { l.loaded, l.loadErr = load(l.srcs, l.opts) })
	return l.loaded, l.loadErr
}

// Check parses the policies and checks them against the contract (what New
// reports as a broken policy), without compiling.
func (l *Lazy) Check() error {
	_, err := l.load()
	return err
}

// SetRules gives the rules' metadata, read from the cache under Hash, so
// Rules need not parse the policies.
func (l *Lazy) SetRules(rules []*Rule) { l.rules = rules }

// HasRules reports whether SetRules gave the metadata.
func (l *Lazy) HasRules() bool { return l.rules != nil }

// Rules returns the metadata of every rule, ordered by id: as SetRules
// gave it, else by parsing the policies.
func (l *Lazy) Rules() ([]*Rule, error) {
	if l.rules != nil {
		return l.rules, nil
	}
	e, err := l.load()
	if err != nil {
		return nil, err
	}
	return e.rules, nil
}

// Engine parses (once) and compiles (once) the policies.
func (l *Lazy) Engine(ctx context.Context) (*Engine, error) {
	l.compileOnce.Do(func() {
		e, err := l.load()
		if err != nil {
			l.compileErr = err
			return
		}
		if err := e.compile(ctx); err != nil {
			l.compileErr = err
			return
		}
		l.compiled = e
	})
	return l.compiled, l.compileErr
}
