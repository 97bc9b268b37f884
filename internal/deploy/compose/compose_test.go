package compose

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

var update = flag.Bool("update", false, "rewrite testdata/*.want.txt")

// repo is an in-memory repository: the fixture directories of testdata
// under repo/, display paths that exist nowhere on disk, so a read that
// bypassed the callback would find nothing.
type repo map[string][]byte

func loadRepo(t *testing.T) repo {
	t.Helper()
	r := repo{}
	err := filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".want.txt") {
			return err
		}
		b, err := os.ReadFile(p)
		r["repo/"+filepath.ToSlash(strings.TrimPrefix(p, "testdata"+string(filepath.Separator)))] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// read is the callback: files of the map, fs.ErrNotExist for the rest of
// the repository, and a refusal outside it, as the core's bounded FS.
func (r repo) read(p string) ([]byte, error) {
	if b, ok := r[p]; ok {
		return b, nil
	}
	if !strings.HasPrefix(path.Clean(p), "repo/") {
		return nil, fmt.Errorf("%s lies outside the repository", p)
	}
	return nil, fmt.Errorf("open %s: %w", p, fs.ErrNotExist)
}

func (r repo) opts() Options {
	return Options{Inside: func(p string) bool { return strings.HasPrefix(p, "repo/") }}
}

// render writes a Result as the want files hold it: every field, every
// Loc, and each text with the container line each of its lines lies on.
func render(r repo, res Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "project %s\nfiles %s\n", res.Project, strings.Join(res.Files, " "))
	if len(res.Other) > 0 {
		fmt.Fprintf(&b, "other %s\n", strings.Join(res.Other, " "))
	}
	for _, w := range res.Workloads {
		fmt.Fprintf(&b, "\nworkload %s (%s, group %s) at %s\n", w.Name, w.Source, w.Group, w.Loc)
		if w.Role != "" {
			fmt.Fprintf(&b, "  role %s at %s\n", w.Role, w.RoleLoc)
		}
		if w.Replicas != 0 {
			fmt.Fprintf(&b, "  replicas %d at %s\n", w.Replicas, w.ReplicasLoc)
		}
		if w.Image != "" {
			fmt.Fprintf(&b, "  image %s at %s\n", w.Image, w.ImageLoc)
		}
		if w.Build != nil {
			fmt.Fprintf(&b, "  build %s at %s\n", w.Build.Dockerfile, w.Build.Loc)
		}
		for _, e := range w.Env {
			if e.Unknown != "" {
				fmt.Fprintf(&b, "  env %s unknown (%s) at %s\n", e.Name, e.Unknown, e.Loc)
				continue
			}
			fmt.Fprintf(&b, "  env %s=%q at %s\n", e.Name, e.Value, e.Loc)
			if e.Text != nil {
				renderText(&b, r, e.Text)
			}
		}
		for _, m := range w.Mounts {
			v := m.Volume
			fmt.Fprintf(&b, "  mount %s: %s %s%s", m.Path, v.Kind, v.Path, v.Name)
			if m.ReadOnly {
				b.WriteString(" ro")
			}
			if m.SubPath != "" {
				fmt.Fprintf(&b, " subpath %s", m.SubPath)
			}
			fmt.Fprintf(&b, " at %s (volume at %s)\n", m.Loc, v.Loc)
		}
		for _, t := range w.Texts {
			renderText(&b, r, t)
		}
	}
	if len(res.Notes) > 0 {
		b.WriteString("\n")
	}
	for _, n := range res.Notes {
		fmt.Fprintf(&b, "note %s\n", n)
	}
	return b.String()
}

func renderText(b *strings.Builder, r repo, t *deploy.Text) {
	fmt.Fprintf(b, "    text %s", t.Name)
	if t.Path != "" {
		fmt.Fprintf(b, " (%s)", t.Path)
	}
	fmt.Fprintf(b, " in %s at %s", t.Container, t.Loc)
	if t.Exact {
		fmt.Fprintf(b, ", exact: bytes %d-%d, indent %d", t.Start, t.End, len(t.Indent))
	}
	b.WriteString("\n")
	for i, l := range strings.Split(strings.TrimRight(string(t.Src), "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		fmt.Fprintf(b, "      %d| %s\n", i+1, strings.TrimSpace(l))
	}
}

// checkTexts holds every Exact text to the brief's contract: its bytes
// from Start to End are the container's, everything before Start is
// blank with the container's newlines, and each content line carries
// Indent; and a text that is not Exact but laid out on lines (CORE_CONF)
// names lines its container has.
func checkTexts(t *testing.T, r repo, res Result) {
	t.Helper()
	var texts []*deploy.Text
	for _, w := range res.Workloads {
		for _, e := range w.Env {
			if e.Text != nil {
				texts = append(texts, e.Text)
			}
		}
		texts = append(texts, w.Texts...)
	}
	for _, tx := range texts {
		src := r[tx.Container]
		if src == nil {
			t.Errorf("%s: container %s not in the repository", tx.Name, tx.Container)
			continue
		}
		if !tx.Exact {
			if n := strings.Count(string(tx.Src), "\n"); tx.Path != "" && n > strings.Count(string(src), "\n")+1 {
				t.Errorf("%s in %s: %d lines, its container has fewer", tx.Name, tx.Container, n)
			}
			continue
		}
		if tx.End > len(src) || tx.Start > tx.End || len(tx.Src) != tx.End {
			t.Fatalf("%s in %s: Start %d End %d len(Src) %d outside the container", tx.Name, tx.Container, tx.Start, tx.End, len(tx.Src))
		}
		if !bytes.Equal(tx.Src[tx.Start:], src[tx.Start:tx.End]) {
			t.Errorf("%s: Src[Start:] %q is not the container's %q", tx.Name, tx.Src[tx.Start:], src[tx.Start:tx.End])
		}
		if strings.TrimSpace(string(tx.Src[:tx.Start])) != "" || bytes.Count(tx.Src[:tx.Start], []byte("\n")) != bytes.Count(src[:tx.Start], []byte("\n")) {
			t.Errorf("%s: Src before Start is not blank with the container's lines", tx.Name)
		}
		if lineOf(src, tx.Start) <= tx.Loc.Line {
			t.Errorf("%s: content at line %d does not follow its key at %s", tx.Name, lineOf(src, tx.Start), tx.Loc)
		}
		for _, l := range strings.Split(strings.TrimRight(string(src[tx.Start:tx.End]), "\n"), "\n")[1:] {
			if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, tx.Indent) {
				t.Errorf("%s: line %q lacks the indent %q", tx.Name, l, tx.Indent)
			}
		}
	}
}

func TestFixtures(t *testing.T) {
	// The environment ckptlint runs in is a CI runner's: none of it may
	// reach a value (FLINK_VERSION is in stack/.env; API_TOKEN, HOME and
	// PASSTHROUGH are not defined there).
	t.Setenv("FLINK_VERSION", "0.0.0-from-the-process")
	t.Setenv("API_TOKEN", "secret-from-the-process")
	t.Setenv("PASSTHROUGH", "secret-from-the-process")
	t.Setenv("HOME", "/home/from-the-process")
	t.Setenv("TM_COUNT", "99")
	r := loadRepo(t)
	for _, c := range []struct{ name, file string }{
		{"flink-session", "repo/flink-session/docker-compose.yml"},
		{"bde-hadoop", "repo/bde-hadoop/docker-compose.yml"},
		{"stack", "repo/stack/docker-compose.yml"},
		{"stack-override", "repo/stack/docker-compose.override.yml"},
		{"stack-prod", "repo/stack/docker-compose.prod.yml"},
		{"hostile", "repo/hostile/docker-compose.yml"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := Read(c.file, r[c.file], r.read, r.opts())
			got := render(r, res)
			if strings.Contains(got, "from-the-process") {
				t.Errorf("a value came from the process environment:\n%s", got)
			}
			checkTexts(t, r, res)
			want := filepath.Join("testdata", c.name+".want.txt")
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(string(b), got); d != "" {
				t.Errorf("Read(%s) differs from %s (-want +got):\n%s", c.file, want, d)
			}
		})
	}
}

func TestPropertyName(t *testing.T) {
	for in, want := range map[string]string{
		"fs_defaultFS": "fs.defaultFS",
		"dfs_namenode_datanode_registration_ip___hostname___check": "dfs.namenode.datanode.registration.ip-hostname-check",
		"yarn_nodemanager_aux___services_mapreduce__shuffle_class": "yarn.nodemanager.aux-services.mapreduce_shuffle.class",
	} {
		if got := propertyName(in); got != want {
			t.Errorf("propertyName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsComposeFile(t *testing.T) {
	var got []string
	for _, n := range []string{"docker-compose.yml", "docker-compose.yaml", "compose.yaml", "compose.yml",
		"docker-compose.override.yml", "compose.prod.yaml", "Docker-Compose.YML", "docker-compose.yml.bak",
		"docker-compose.", "compose..yml", "mycompose.yml", "docker-compose.json", "compose.yaml~"} {
		if IsComposeFile(n) {
			got = append(got, n)
		}
	}
	sort.Strings(got)
	want := []string{"Docker-Compose.YML", "compose.prod.yaml", "compose.yaml", "compose.yml", "docker-compose.override.yml", "docker-compose.yaml", "docker-compose.yml"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("IsComposeFile (-want +got):\n%s", d)
	}
}

// lineOf is the 1-based line of offset off, lines ending at "\n", "\r\n"
// or a lone "\r" (as YAML's and internal/parsed's).
func lineOf(src []byte, off int) int {
	return breaks(src[:off]) + 1
}
