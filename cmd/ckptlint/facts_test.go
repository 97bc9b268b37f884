package main

import (
	"bytes"
	"context"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/config"
)

// TestFactsURLMode runs `ckptlint facts --jobmanager URL --ca-file PEM`
// against a local TLS server serving the recorded Flink responses: the
// private CA is refused without --ca-file (nothing written) and trusted
// with it, and the file names the URLs it read.
func TestFactsURLMode(t *testing.T) {
	read := func(n string) []byte {
		data, err := os.ReadFile(filepath.Join("../../facts/testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	const job = "3a1b2c3d4e5f60718293a4b5c6d7e8f9"
	var methods []string
	mux := http.NewServeMux()
	reply := func(body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			methods = append(methods, r.Method)
			w.Write(body)
		}
	}
	mux.HandleFunc("/overview", reply(read("flink-2.0-overview.json")))
	mux.HandleFunc("/jobs/"+job+"/checkpoints", reply(read("flink-2.0-checkpoints.json")))
	mux.HandleFunc("/jobs/"+job+"/checkpoints/config", reply(read("flink-2.0-config.json")))
	srv := httptest.NewTLSServer(mux)
	defer srv.Close()

	dir := t.TempDir()
	t.Chdir(dir)
	cfg := "deployment \"orders\" {\n  flink_conf = \"conf\"\n}\n"
	if err := os.WriteFile(".ckptlint.hcl", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"facts", "--now", "2026-12-01T08:00:00Z", "--jobmanager", srv.URL, "--job", job}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != exitUsage ||
		!strings.Contains(stderr.String(), "GET "+srv.URL+"/overview: TLS certificate not trusted") {
		t.Fatalf("without --ca-file: exit %d, stderr %s", code, stderr.String())
	}
	if got, _ := os.ReadFile(".ckptlint.hcl"); string(got) != cfg {
		t.Fatalf("a failed run changed the file:\n%s", got)
	}

	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := run(context.Background(), append(args, "--ca-file", ca), strings.NewReader(""), &stdout, &stderr); code != exitClean {
		t.Fatalf("with --ca-file: exit %d, stderr %s", code, stderr.String())
	}
	got, _ := os.ReadFile(".ckptlint.hcl")
	for _, want := range []string{
		`checkpoint_p99 = "125s" # from jobmanager ` + srv.URL + `/jobs/` + job + `/checkpoints, 2026-12-01;`,
		`flink_version = "2.0.0" # from jobmanager ` + srv.URL + `/overview, 2026-12-01;`,
		// The TaskManagers are this Flink cluster's: the deployment block's.
		`  flink_conf = "conf"` + "\n" + `  taskmanagers = 3 # from jobmanager ` + srv.URL + `/overview`,
		`job_id = "` + job + `"`,
		`interval = "30500ms"`,
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	// The file lint reads it with: the facts schema of docs/config.md.
	if _, diags := config.Load(".ckptlint.hcl"); diags.HasErrors() {
		var b strings.Builder
		_ = diags.Write(&b, false)
		t.Errorf("the written file does not load:\n%s", b.String())
	}
	for _, m := range methods {
		if m != http.MethodGet {
			t.Errorf("method %s, want GET only", m)
		}
	}
}
