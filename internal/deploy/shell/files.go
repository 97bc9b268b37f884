package shell

import (
	"net/url"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// Options of wget and curl that take a value (the next word, or joined).
var (
	wgetValued = map[string]bool{"-O": true, "-P": true, "-o": true, "-a": true, "-i": true, "-e": true, "-t": true, "-T": true, "-U": true, "-w": true, "-Q": true, "-B": true}
	curlValued = map[string]bool{"-o": true, "-H": true, "-d": true, "-u": true, "-X": true, "-A": true, "-e": true, "-m": true, "-x": true, "-b": true, "-c": true, "-K": true, "-T": true, "-w": true, "-E": true, "-F": true, "-r": true, "-C": true, "-Y": true, "-y": true, "-z": true}
)

// download reads `wget [-O file | -P dir] URL` and `curl -o file URL` /
// `curl -O URL` (their manuals: wget saves under the URL's last path
// element in the working directory unless -O or -P says otherwise; curl
// writes to standard output unless -o, or -O for the URL's name). A
// download to standard output (-O -, curl without -o/-O) writes no file.
func (r *reader) download(s *syntax.Stmt, name string, ws []*syntax.Word) {
	valued := wgetValued
	if name == "curl" {
		valued = curlValued
	}
	args := r.args(ws)
	var urls []string
	opt := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.Contains(a, "://") && !strings.HasPrefix(a, "-"):
			urls = append(urls, a)
		case strings.HasPrefix(a, "--"):
			k, v, ok := strings.Cut(a, "=")
			if !ok && (k == "--output" || k == "--output-document" || k == "--directory-prefix" || k == "--output-dir") && i+1 < len(args) {
				i++
				v = args[i]
			}
			opt[k] = v
		case strings.HasPrefix(a, "-"):
			if shortOptions(a, valued, opt) && i+1 < len(args) {
				i++
				opt[lastOption(a)] = args[i]
			}
		}
	}
	for _, u := range urls {
		if dest := downloadDest(name, u, opt); dest != "" && dest != "-" {
			r.addFile(deploy.Copy{Src: u, Dest: r.abs(dest), Loc: r.loc(s.Pos())})
		}
	}
}

// shortOptions records a bundle of short options (-fsSLO, -qO-, -O file):
// each letter an option, up to one that takes a value, which is the rest
// of the word or, when nothing follows, the next word (it reports that).
func shortOptions(a string, valued map[string]bool, opt map[string]string) bool {
	for j := 1; j < len(a); j++ {
		o := "-" + a[j:j+1]
		if !valued[o] {
			opt[o] = ""
			continue
		}
		if j+1 < len(a) {
			opt[o] = a[j+1:]
			return false
		}
		return true
	}
	return false
}

// lastOption is the last short option of a bundle.
func lastOption(a string) string { return "-" + a[len(a)-1:] }

func downloadDest(name, u string, opt map[string]string) string {
	base := ""
	if pu, err := url.Parse(u); err == nil {
		base = path.Base(pu.Path)
	}
	if name == "wget" {
		if f := first(opt["-O"], opt["--output-document"]); f != "" {
			return f
		}
		return path.Join(first(opt["-P"], opt["--directory-prefix"], "."), base)
	}
	if f := first(opt["-o"], opt["--output"]); f != "" {
		return f
	}
	_, o1 := opt["-O"]
	_, o2 := opt["--remote-name"]
	if o1 || o2 {
		return path.Join(first(opt["--output-dir"], "."), base)
	}
	return ""
}

func first(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// copyFiles reads cp, mv and ln: every source into the last word (into
// it as a directory when it ends in '/', when there are several sources,
// or when it has no extension and the source has one:
// `cp ./opt/flink-s3-fs-hadoop-1.17.0.jar ./plugins/s3-fs-hadoop`).
func (r *reader) copyFiles(s *syntax.Stmt, name string, ws []*syntax.Word) {
	var files []string
	for _, a := range r.args(ws) {
		if !strings.HasPrefix(a, "-") {
			files = append(files, a)
		}
	}
	if len(files) < 2 {
		return
	}
	dest := files[len(files)-1]
	srcs := files[:len(files)-1]
	for _, src := range srcs {
		d := dest
		if strings.HasSuffix(dest, "/") || len(srcs) > 1 || path.Ext(dest) == "" && path.Ext(src) != "" {
			d = path.Join(dest, path.Base(src))
		}
		if name == "ln" {
			d = path.Clean(d)
		}
		r.addFile(deploy.Copy{Src: r.abs(src), Dest: r.abs(d), Loc: r.loc(s.Pos())})
	}
}

func (r *reader) addFile(c deploy.Copy) {
	if !r.full(len(r.res.Files)) {
		r.res.Files = append(r.res.Files, c)
	}
}
