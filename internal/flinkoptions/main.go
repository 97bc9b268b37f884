//go:build ignore

// Command flinkoptions writes internal/model/flinkoptions_gen.go: the Flink
// configuration keys of the namespaces CKPT608 checks, per Flink release,
// read from a git clone of apache/flink (or a mirror carrying its release
// branches, such as flink-ci/flink-mirror).
//
//	go run ./internal/flinkoptions/main.go -repo /path/to/flink.git > internal/model/flinkoptions_gen.go
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
// It needs git on PATH and reads the repository only through git.
package main

import (
	"bufio"
	"bytes"
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

// namespaces are the key prefixes CKPT608 checks.
var namespaces = []string{"high-availability.", "state.", "execution.checkpointing.", "kubernetes.", "restart-strategy.", "fs."}

var (
	htmlKey  = regexp.MustCompile(`<td><h5>([^<]+)</h5></td>`)
	callRE   = regexp.MustCompile(`\b(key|withDeprecatedKeys|withFallbackKeys)\s*\(`)
	constRE  = regexp.MustCompile(`static final String [A-Z0-9_]+\s*=\s*"([^"]+)"\s*;`)
	literal  = regexp.MustCompile(`^\s*"([^"\\]+)"\s*$`)
	validKey = regexp.MustCompile(`^[a-z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]$`)
)

func main() {
	repo := flag.String("repo", "", "git directory of an apache/flink clone or mirror")
	flag.Parse()
	if *repo == "" {
		fmt.Fprintln(os.Stderr, "usage: flinkoptions -repo DIR")
		os.Exit(2)
	}
	masks := map[string]uint32{}
	var commits []string
	for i, rel := range releases {
		branch := "release-" + rel
		commit := strings.TrimSpace(string(git(*repo, "rev-parse", branch)))
		commits = append(commits, commit)
		for _, k := range keysOf(*repo, commit) {
			masks[k] |= 1 << i
		}
	}
	var buf bytes.Buffer
	write(&buf, masks, commits)
	src, err := format.Source(buf.Bytes())
	if err != nil {
		fail(err)
	}
	os.Stdout.Write(src)
}

func keysOf(repo, commit string) []string {
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
	for _, p := range lines(git(repo, "ls-tree", "-r", "--name-only", commit, "docs/layouts/shortcodes/generated")) {
		if strings.HasSuffix(p, ".html") {
			paths = append(paths, p)
		}
	}
	javas := lines(git(repo, "grep", "-l", "-E", "withDeprecatedKeys|withFallbackKeys|ConfigOption", commit, "--", "*.java", ":!**/src/test/**"))
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
		if strings.HasSuffix(p, "/ConfigConstants.java") {
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

func fail(err error) {
	fmt.Fprintln(os.Stderr, "flinkoptions:", err)
	os.Exit(1)
}
