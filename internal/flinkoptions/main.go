//go:build ignore

// Command flinkoptions writes internal/model/flinkoptions_gen.go: the Flink
// configuration keys of the namespaces CKPT608 checks, per Flink release,
// read from a git clone of apache/flink (or a mirror carrying its release
// branches, such as flink-ci/flink-mirror).
//
//	go run ./internal/flinkoptions/main.go -repo /path/to/flink.git > internal/model/flinkoptions_gen.go
//
// With -legacy it writes internal/model/flinkoptions_legacy_gen.go instead: the
// same table for the releases before 1.13 (0.9 to 1.12), read from the
// newest release tag of each line (release-1.12.7, ...), which every clone
// of apache/flink carries (and so does any fork that kept its tags):
//
//	go run ./internal/flinkoptions/main.go -legacy -repo /path/to/flink.git > internal/model/flinkoptions_legacy_gen.go
//
// 0.9 is where the table starts because it is the first release with
// checkpoint state configuration: its ConfigConstants.java has
// state.backend and state.backend.fs.checkpointdir, and 0.8's has neither
// (nor parallelism.default, which was parallelization.degree.default).
//
// It is a `//go:build ignore` file rather than a main package so that
// `go install ./...` (what pre-commit's golang hooks run in this repository)
// installs ckptlint and nothing else.
//
// For every release branch it takes the union of
//   - the keys of Flink's generated option tables
//     (docs/layouts/shortcodes/generated/*.html, `<td><h5>key</h5></td>`),
//     which the documentation build writes from the ConfigOption classes, and
//   - the string literals of ConfigOptions.key("..."), .withDeprecatedKeys(...)
//     and .withFallbackKeys(...) in the main (non-test) Java sources, which
//     adds deprecated spellings and options hidden from the documentation,
//   - the String constants of ConfigConstants.java (legacy keys such as
//     fs.hdfs.hadoopconf that Flink reads through them).
//
// For the releases before 1.13 the option tables are docs/_includes/generated
// (1.5 to 1.12; older releases have none), and the String constants of every
// main Java source count, not only ConfigConstants.java: before
// ConfigOptions, factories declared their keys as constants
// (FsStateBackendFactory.CHECKPOINT_DIRECTORY_URI_CONF_KEY is
// "state.backend.fs.checkpointdir" in 0.10 to 1.4,
// SavepointStoreFactory.SAVEPOINT_DIRECTORY_KEY is
// "savepoints.state.backend.fs.dir" in 1.0 and 1.1).
//
// It needs git on PATH and reads the repository only through git.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
)

// releases are the branches read, oldest first; the bit of a release in a
// key's mask is its index here.
var releases = []string{"1.13", "1.14", "1.15", "1.16", "1.17", "1.18", "1.19", "1.20", "2.0", "2.1", "2.2", "2.3"}

// legacyReleases are the release lines read with -legacy, oldest first,
// each at its newest release-X.Y.Z tag.
var legacyReleases = []string{"0.9", "0.10", "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11", "1.12"}

// namespaces are the key prefixes CKPT608 checks.
var namespaces = []string{"high-availability.", "state.", "execution.checkpointing.", "kubernetes.", "restart-strategy.", "fs."}

var (
	htmlKey  = regexp.MustCompile(`<td><h5>([^<]+)</h5></td>`)
	tagRE    = regexp.MustCompile(`^release-(\d+)\.(\d+)\.(\d+)$`)
	callRE   = regexp.MustCompile(`\b(key|withDeprecatedKeys|withFallbackKeys)\s*\(`)
	constRE  = regexp.MustCompile(`static final String [A-Z0-9_]+\s*=\s*"([^"]+)"\s*;`)
	literal  = regexp.MustCompile(`^\s*"([^"\\]+)"\s*$`)
	validKey = regexp.MustCompile(`^[a-z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]$`)
)

func main() {
	repo := flag.String("repo", "", "git directory of an apache/flink clone or mirror")
	legacy := flag.Bool("legacy", false, "write the table of the releases before 1.13 (flinkoptions_legacy_gen.go), read from release tags")
	flag.Parse()
	if *repo == "" {
		fmt.Fprintln(os.Stderr, "usage: flinkoptions [-legacy] -repo DIR")
		os.Exit(2)
	}
	rels := releases
	if *legacy {
		rels = legacyReleases
	}
	masks := map[string]uint32{}
	var refs, commits []string
	for i, rel := range rels {
		ref := "release-" + rel
		if *legacy {
			ref = newestTag(*repo, rel)
		}
		commit := strings.TrimSpace(string(git(*repo, "rev-parse", ref+"^{commit}")))
		refs = append(refs, ref)
		commits = append(commits, commit)
		for _, k := range keysOf(*repo, commit, *legacy) {
			masks[k] |= 1 << i
		}
	}
	var buf bytes.Buffer
	if *legacy {
		writeLegacy(&buf, rels, masks, refs, commits)
	} else {
		write(&buf, masks, commits)
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		fail(err)
	}
	os.Stdout.Write(src)
}

// newestTag is the release-X.Y.Z tag of release line rel with the highest
// patch number (release candidates, -rcN, are not releases).
func newestTag(repo, rel string) string {
	best, bestPatch := "", -1
	for _, t := range lines(git(repo, "tag", "--list", "release-"+rel+".*")) {
		m := tagRE.FindStringSubmatch(t)
		if m == nil || m[1]+"."+m[2] != rel {
			continue
		}
		var p int
		fmt.Sscanf(m[3], "%d", &p)
		if p > bestPatch {
			best, bestPatch = t, p
		}
	}
	if best == "" {
		fail(fmt.Errorf("no release-%s.N tag in %s", rel, repo))
	}
	return best
}

// keysOf lists the keys of the namespaces that the sources at commit know.
// legacy (a release before 1.13) also reads the option tables under
// docs/_includes/generated and the String constants of every main Java
// source.
func keysOf(repo, commit string, legacy bool) []string {
	seen := map[string]bool{}
	add := func(k string) {
		if !validKey.MatchString(k) {
			return
		}
		for _, ns := range namespaces {
			if strings.HasPrefix(k, ns) {
				seen[k] = true
			}
		}
	}
	var paths []string
	tables := []string{"docs/layouts/shortcodes/generated"}
	grepFor := "withDeprecatedKeys|withFallbackKeys|ConfigOption"
	if legacy {
		tables = append(tables, "docs/_includes/generated")
		grepFor += "|static final String"
	}
	for _, dir := range tables {
		for _, p := range lines(git(repo, "ls-tree", "-r", "--name-only", commit, dir)) {
			if strings.HasSuffix(p, ".html") {
				paths = append(paths, p)
			}
		}
	}
	pathspec := []string{"*.java", ":!**/src/test/**"}
	if legacy {
		// The SQL client's environment-file keys (ExecutionEntry's
		// "restart-strategy.type", "restart-strategy.attempts", ... in 1.7
		// to 1.12) are String constants that are no Flink options.
		pathspec = append(pathspec, ":!**/flink-sql-client/**")
	}
	javas := lines(gitOK(repo, append([]string{"grep", "-l", "-E", grepFor, commit, "--"}, pathspec...)...))
	for _, p := range javas {
		paths = append(paths, strings.TrimPrefix(p, commit+":"))
	}
	for p, body := range catFiles(repo, commit, paths) {
		if strings.HasSuffix(p, ".html") {
			for _, m := range htmlKey.FindAllStringSubmatch(string(body), -1) {
				add(strings.TrimSpace(m[1]))
			}
			continue
		}
		src := string(body)
		if legacy || strings.HasSuffix(p, "/ConfigConstants.java") {
			// Legacy keys Flink still reads through these constants
			// (fs.hdfs.hadoopconf through HadoopUtils, for one).
			for _, m := range constRE.FindAllStringSubmatch(src, -1) {
				add(m[1])
			}
		}
		for _, loc := range callRE.FindAllStringSubmatchIndex(src, -1) {
			for _, arg := range args(src[loc[1]:]) {
				if m := literal.FindStringSubmatch(arg); m != nil {
					add(m[1])
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// args splits the argument list that starts right after "(" at its
// top-level commas, up to the matching ")"; string literals are skipped
// whole.
func args(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s) && i < 4000; i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return append(out, s[start:i])
			}
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return nil
}

func catFiles(repo, commit string, paths []string) map[string][]byte {
	cmd := exec.Command("git", "-C", repo, "cat-file", "--batch")
	var in bytes.Buffer
	for _, p := range paths {
		fmt.Fprintf(&in, "%s:%s\n", commit, p)
	}
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		fail(err)
	}
	r := bufio.NewReader(bytes.NewReader(out))
	files := map[string][]byte{}
	for _, p := range paths {
		hdr, err := r.ReadString('\n')
		if err != nil {
			fail(err)
		}
		var name, typ string
		var size int
		if _, err := fmt.Sscanf(hdr, "%s %s %d", &name, &typ, &size); err != nil {
			continue // "<object> missing"
		}
		body := make([]byte, size+1)
		if _, err := io.ReadFull(r, body); err != nil {
			fail(err)
		}
		files[p] = body[:size]
	}
	return files
}

func git(repo string, arg ...string) []byte {
	out, err := exec.Command("git", append([]string{"-C", repo}, arg...)...).Output()
	if err != nil {
		fail(fmt.Errorf("git %s: %w", strings.Join(arg, " "), err))
	}
	return out
}

// gitOK is git for commands that exit 1 when they find nothing (git grep).
func gitOK(repo string, arg ...string) []byte {
	out, err := exec.Command("git", append([]string{"-C", repo}, arg...)...).Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		fail(fmt.Errorf("git %s: %w", strings.Join(arg, " "), err))
	}
	return out
}

func lines(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func write(w io.Writer, masks map[string]uint32, commits []string) {
	keys := make([]string, 0, len(masks))
	for k := range masks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintln(w, "// Code generated by go run ./internal/flinkoptions/main.go; DO NOT EDIT.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "package model")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "// flinkOptionReleases are the Flink releases of flinkOptionKeys, oldest first;")
	fmt.Fprintln(w, "// bit i of a key's mask is release i. Read from these apache/flink release")
	fmt.Fprintln(w, "// branch commits (the generated option tables under")
	fmt.Fprintln(w, "// docs/layouts/shortcodes/generated and the ConfigOptions key, deprecated and")
	fmt.Fprintln(w, "// fallback key literals of the main Java sources):")
	for i, r := range releases {
		fmt.Fprintf(w, "//   - release-%s %s\n", r, commits[i])
	}
	fmt.Fprintln(w, "var flinkOptionReleases = []Version{")
	for _, r := range releases {
		var maj, min int
		fmt.Sscanf(r, "%d.%d", &maj, &min)
		fmt.Fprintf(w, "\t{%d, %d, 0},\n", maj, min)
	}
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "// flinkOptionNamespaces are the key prefixes the table covers.\nvar flinkOptionNamespaces = %#v\n\n", namespaces)
	fmt.Fprintln(w, "// flinkOptionKeys maps each key to the releases that know it (bit mask).")
	fmt.Fprintln(w, "var flinkOptionKeys = map[string]uint32{")
	for _, k := range keys {
		fmt.Fprintf(w, "\t%q: 0x%03x,\n", k, masks[k])
	}
	fmt.Fprintln(w, "}")
}

// writeLegacy writes flinkoptions_legacy_gen.go: the table of the releases
// before 1.13, read from their newest release tags.
func writeLegacy(w io.Writer, rels []string, masks map[string]uint32, refs, commits []string) {
	keys := make([]string, 0, len(masks))
	for k := range masks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintln(w, "// Code generated by go run ./internal/flinkoptions/main.go -legacy; DO NOT EDIT.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "package model")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "// flinkLegacyReleases are the Flink releases before 1.13 of the option table,")
	fmt.Fprintln(w, "// oldest first; bit i of a key's mask in flinkLegacyKeys is release i. Read")
	fmt.Fprintln(w, "// from the newest apache/flink release tag of each line (the option tables")
	fmt.Fprintln(w, "// under docs/_includes/generated from 1.5, the ConfigOptions key, deprecated")
	fmt.Fprintln(w, "// and fallback key literals and the String constants of the main Java")
	fmt.Fprintln(w, "// sources):")
	for i := range rels {
		fmt.Fprintf(w, "//   - %s %s\n", refs[i], commits[i])
	}
	fmt.Fprintln(w, "var flinkLegacyReleases = []Version{")
	for _, r := range rels {
		var maj, min int
		fmt.Sscanf(r, "%d.%d", &maj, &min)
		fmt.Fprintf(w, "\t{%d, %d, 0},\n", maj, min)
	}
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "// flinkLegacyKeys maps each key to the releases before 1.13 that know it (bit mask).")
	fmt.Fprintln(w, "var flinkLegacyKeys = map[string]uint32{")
	for _, k := range keys {
		fmt.Fprintf(w, "\t%q: 0x%04x,\n", k, masks[k])
	}
	fmt.Fprintln(w, "}")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "flinkoptions:", err)
	os.Exit(1)
}
