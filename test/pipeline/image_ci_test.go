package pipeline

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The GitLab CI job and the Jenkins pipeline of docs/ci.md, which shows
// docs/examples/gitlab-ci.yml and docs/examples/Jenkinsfile verbatim
// (TestCIExamplesAreDocumented), run in the -debug release image that
// image_test.go builds from the Dockerfile.

// gitlabCILocalVersion is the gitlab-ci-local .ci/run installs with npm:
// the newest release that runs on the test machine's Node.js 20 (4.74.0
// and later call Set.prototype.union, which Node.js 22 added, and fail on
// start with "TypeError: kW.union is not a function").
const gitlabCILocalVersion = "4.73.0"

// releaseImageRef matches the -debug release image the examples pin.
var releaseImageRef = regexp.MustCompile(`ghcr\.io/ckptlint/ckptlint:v[0-9.]+-debug`)

// TestCIExamplesAreDocumented checks that docs/ci.md shows the tested
// GitLab CI job and Jenkins pipeline verbatim, in its ```yaml and
// ```groovy blocks.
func TestCIExamplesAreDocumented(t *testing.T) {
	doc := readFile(t, filepath.Join(root, "docs", "ci.md"))
	for _, ex := range []struct{ file, lang, marker string }{
		{"gitlab-ci.yml", "yaml", "\n  script:\n"},
		{"Jenkinsfile", "groovy", "pipeline {"},
	} {
		want := readFile(t, filepath.Join(root, "docs", "examples", ex.file))
		found := false
		for _, m := range regexp.MustCompile("(?s)```"+ex.lang+"\n(.*?)```").FindAllStringSubmatch(doc, -1) {
			if !strings.Contains(m[1], ex.marker) {
				continue
			}
			found = true
			if m[1] != want {
				t.Errorf("docs/ci.md shows a %s block that is not docs/examples/%s:\n%s", ex.lang, ex.file, m[1])
			}
		}
		if !found {
			t.Errorf("docs/ci.md does not show docs/examples/%s", ex.file)
		}
		if n := len(releaseImageRef.FindAllString(want, -1)); n != 1 {
			t.Errorf("docs/examples/%s names the -debug release image %d times, want once", ex.file, n)
		}
	}
}

// requireGitLabCILocal returns gitlab-ci-local, checked to be the pinned
// version, or skips (fails under CI=true, where .ci/run installs it).
func requireGitLabCILocal(t *testing.T) string {
	t.Helper()
	p := requireTool(t, "gitlab-ci-local", "runs docs/examples/gitlab-ci.yml; npm install gitlab-ci-local@"+gitlabCILocalVersion)
	if r := run(t, root, nil, p, "--version"); r.code != 0 || strings.TrimSpace(r.stdout) != gitlabCILocalVersion {
		msg := "gitlab-ci-local on PATH is not " + gitlabCILocalVersion + ": " + r.String()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	requireTool(t, "rsync", "gitlab-ci-local copies the repository with it")
	return p
}

// gitlabJob is docs/examples/gitlab-ci.yml with the locally built -debug
// image in place of the release's. gitlab-ci-local copies a job's
// artifacts:paths out of its container, and of artifacts:reports only
// dotenv (GitLab uploads every report): so the job gets the paths of its
// two reports too, and extra (a YAML line of the job, such as
// allow_failure) when given.
func gitlabJob(t *testing.T, extra string) string {
	t.Helper()
	src := readFile(t, filepath.Join(root, "docs", "examples", "gitlab-ci.yml"))
	src = releaseImageRef.ReplaceAllString(src, testImageDbg)
	const artifacts = "\n  artifacts:\n"
	if strings.Count(src, artifacts) != 1 {
		t.Fatalf("docs/examples/gitlab-ci.yml: want one %q", artifacts)
	}
	src = strings.Replace(src, artifacts, artifacts+"    paths: [gl-code-quality-report.json, ckptlint-junit.xml]\n", 1)
	if extra != "" {
		src = strings.Replace(src, "\n  script:\n", "\n"+extra+"  script:\n", 1)
	}
	return src
}

// runGitLabJob runs job as .gitlab-ci.yml of a git repository holding the
// files of src, with gitlab-ci-local's docker executor: the job's image,
// nothing pulled (the image and the helper are local), and every container
// and volume removed afterwards. It returns gitlab-ci-local's result and
// the directory it copied the job's artifacts to.
func runGitLabJob(t *testing.T, src, job string) (result, string) {
	t.Helper()
	img := releaseImages(t)
	gcl := requireGitLabCILocal(t)
	repo := t.TempDir()
	copyTree(t, src, repo)
	if err := os.WriteFile(filepath.Join(repo, ".gitlab-ci.yml"), []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCommitAll(t, repo)
	r := run(t, repo, []string{"FORCE_COLOR=0"}, gcl, "--home", t.TempDir(), "--pull-policy", "if-not-present",
		"--helper-image", testHelper, "--cleanup", "ckptlint")
	if !strings.Contains(r.stdout, "ckptlint starting "+img.debug) {
		t.Errorf("gitlab-ci-local did not run the job in %s: %v", img.debug, r)
	}
	return r, filepath.Join(repo, ".gitlab-ci-local", "artifacts", "ckptlint")
}

// TestGitLabCIJob runs the documented job on story (b): the job fails with
// ckptlint's exit code 1, the log has the findings, and both reports are
// written and hold the CKPT205 warning.
func TestGitLabCIJob(t *testing.T) {
	r, artifacts := runGitLabJob(t, story("stories", "b-directoryscanner"), gitlabJob(t, ""))
	if out := r.stdout + r.stderr; r.code != 1 || !strings.Contains(out, "ckptlint finished in") || !strings.Contains(out, "FAIL 1") ||
		!strings.Contains(out, "[CKPT205 zero-tolerable-checkpoint-failures") {
		t.Errorf("gitlab-ci-local: want the job to fail with exit code 1 and the CKPT205 warning in its log: %v", r)
	}
	var issues []struct {
		CheckName string `json:"check_name"`
		Severity  string `json:"severity"`
		Location  struct {
			Path string `json:"path"`
		} `json:"location"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(artifacts, "gl-code-quality-report.json"))), &issues); err != nil {
		t.Fatalf("gl-code-quality-report.json: %v", err)
	}
	found := false
	for _, is := range issues {
		found = found || (is.CheckName == "CKPT205 zero-tolerable-checkpoint-failures" && is.Severity == "major" && is.Location.Path == "flink/flink-conf.yaml")
	}
	if !found {
		t.Errorf("gl-code-quality-report.json has no major CKPT205 issue at flink/flink-conf.yaml: %+v", issues)
	}
	checkJUnit(t, filepath.Join(artifacts, "ckptlint-junit.xml"), "CKPT205")
}

// TestGitLabCIJobAllowFailure runs the job with docs/ci.md's
// `allow_failure: exit_codes: [1]`: findings make it a warning, and a
// usage error (an unclosed block in .ckptlint.hcl, exit code 2) still
// fails it.
func TestGitLabCIJobAllowFailure(t *testing.T) {
	job := gitlabJob(t, "  allow_failure:\n    exit_codes: [1]\n")
	r, _ := runGitLabJob(t, story("stories", "b-directoryscanner"), job)
	if out := r.stdout + r.stderr; r.code != 0 || !strings.Contains(out, "WARN 1") || !strings.Contains(out, " WARN  ckptlint") {
		t.Errorf("gitlab-ci-local with allow_failure exit_codes [1] on findings: want a warning and exit code 0: %v", r)
	}
	broken := t.TempDir()
	copyTree(t, story("stories-fixed", "b-directoryscanner"), broken)
	if err := os.WriteFile(filepath.Join(broken, ".ckptlint.hcl"), []byte("deployment {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The job's status is gitlab-ci-local's FAIL, computed as GitLab does
	// (src/job.ts: failed unless exit_codes holds the exit code); its own
	// exit code stays 0, since it counts no job with allow_failure set as
	// failed (src/executor.ts, getFailed), so that is not checked.
	r, _ = runGitLabJob(t, broken, job)
	out := r.stdout + r.stderr
	if !strings.Contains(out, "FAIL 2") || !strings.Contains(out, " FAIL  ckptlint") ||
		!strings.Contains(out, "Unclosed configuration block") {
		t.Errorf("gitlab-ci-local with allow_failure exit_codes [1] on a usage error: want the job to fail with exit code 2: %v", r)
	}
}

// checkJUnit checks that a JUnit report is XML with a failure of rule.
func checkJUnit(t *testing.T, p, rule string) {
	t.Helper()
	var doc struct {
		Suites []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(readFile(t, p)), &doc); err != nil {
		t.Fatalf("%s: %v", filepath.Base(p), err)
	}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if strings.Contains(c.Name, rule) && c.Failure != nil {
				return
			}
		}
	}
	t.Errorf("%s has no failure of %s: %+v", filepath.Base(p), rule, doc)
}

// jenkinsStep is the sh step of docs/examples/Jenkinsfile, and the agent's
// docker args.
func jenkinsStep(t *testing.T) string {
	t.Helper()
	src := readFile(t, filepath.Join(root, "docs", "examples", "Jenkinsfile"))
	if !strings.Contains(src, "args '--entrypoint='") {
		t.Errorf("docs/examples/Jenkinsfile: the docker agent lacks args '--entrypoint=' (the image's entrypoint is ckptlint)")
	}
	steps := regexp.MustCompile(`(?m)^\s*sh '([^']*)'$`).FindAllStringSubmatch(src, -1)
	if len(steps) != 1 {
		t.Fatalf("docs/examples/Jenkinsfile: %d sh steps, want 1", len(steps))
	}
	return steps[0][1]
}

// TestJenkinsShStep runs the Jenkinsfile's sh step as written in the -debug
// image, as the Docker Pipeline plugin runs a docker agent's steps: the
// workspace mounted at its own path and the working directory, the
// entrypoint emptied (the agent's args), and the script run by sh with
// -xe, the flags Jenkins's sh step passes. The declarative pipeline
// itself (the agent, post { junit }) is not run: no Jenkins is installed
// on the test machine, and none is in the package registries it reaches.
// The step must succeed on findings (ckptlint's exit code 1) and write the
// report, succeed on none, and fail on a usage error (exit code 2).
func TestJenkinsShStep(t *testing.T) {
	img := releaseImages(t)
	step := jenkinsStep(t)
	broken := filepath.Join(t.TempDir(), "broken")
	copyTree(t, story("stories-fixed", "b-directoryscanner"), broken)
	if err := os.WriteFile(filepath.Join(broken, ".ckptlint.hcl"), []byte("deployment {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, src string
		code      int
		failure   string // a rule the JUnit report fails
	}{
		{"findings", story("stories", "b-directoryscanner"), 0, "CKPT205"},
		{"clean", story("stories-fixed", "b-directoryscanner"), 0, ""},
		// `[ 2 -eq 1 ]` is false: the step fails, with the test's exit
		// status 1 rather than ckptlint's 2.
		{"usage error", broken, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := filepath.Join(t.TempDir(), "workspace")
			copyTree(t, tc.src, ws)
			writable(t, ws)
			docker := requireDocker(t)
			r := run(t, ws, nil, docker, "run", "--rm", "--network", "none", "-v", ws+":"+ws, "-w", ws,
				"--entrypoint=", img.debug, "sh", "-xe", "-c", step)
			if r.code != tc.code {
				t.Errorf("the sh step: want exit code %d: %v", tc.code, r)
			}
			if tc.failure != "" {
				checkJUnit(t, filepath.Join(ws, "ckptlint-junit.xml"), tc.failure)
			}
		})
	}
}
