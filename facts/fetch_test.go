package facts

import (
	"context"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// serve answers the NameNode and JobManager paths with the recorded
// responses.
func serve(t *testing.T) http.Handler {
	t.Helper()
	read := func(n string) []byte {
		data, err := os.ReadFile(filepath.Join("testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/jmx", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			t.Errorf("method %s, want GET", r.Method)
		}
		if strings.HasSuffix(r.URL.Query().Get("qry"), "name=NameNodeInfo") {
			w.Write(read("namenode-3.3.json"))
			return
		}
		w.Write([]byte(`{"beans":[{"name":"Hadoop:service=NameNode,name=FSNamesystemState","NumLiveDataNodes":7}]}`))
	})
	mux.HandleFunc("/overview", func(w http.ResponseWriter, r *http.Request) { w.Write(read("flink-1.18-overview.json")) })
	mux.HandleFunc("/jobs/overview", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"jobs":[{"jid":"3a1b2c3d4e5f60718293a4b5c6d7e8f9","name":"orders","state":"RUNNING"},{"jid":"00000000000000000000000000000000","name":"old","state":"FINISHED"}]}`))
	})
	mux.HandleFunc("/jobs/3a1b2c3d4e5f60718293a4b5c6d7e8f9/checkpoints", func(w http.ResponseWriter, r *http.Request) { w.Write(read("flink-1.18-checkpoints.json")) })
	mux.HandleFunc("/jobs/3a1b2c3d4e5f60718293a4b5c6d7e8f9/checkpoints/config", func(w http.ResponseWriter, r *http.Request) { w.Write(read("flink-1.18-config.json")) })
	return mux
}

func TestFetchPlain(t *testing.T) {
	srv := httptest.NewServer(serve(t))
	defer srv.Close()
	c := &Client{}
	base, err := BaseURL("--namenode", srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	o, err := FetchNameNode(context.Background(), c, base)
	if err != nil {
		t.Fatal(err)
	}
	if o.Source() != srv.URL+NameNodeInfoPath || len(o.Cluster) != 5 || !strings.Contains(o.Cluster[0].Note, "NumLiveDataNodes 7") {
		t.Errorf("namenode observation %+v", o)
	}
	obs, job, err := FetchJobManager(context.Background(), c, base, "")
	if err != nil {
		t.Fatal(err)
	}
	if job != "3a1b2c3d4e5f60718293a4b5c6d7e8f9" || len(obs) != 3 || len(obs[2].Running) != 6 {
		t.Errorf("job %q, %d observations", job, len(obs))
	}
}

// TestFetchTLS checks that a private CA is refused without --ca-file and
// trusted with it.
func TestFetchTLS(t *testing.T) {
	srv := httptest.NewTLSServer(serve(t))
	defer srv.Close()
	base, _ := BaseURL("--namenode", srv.URL)
	_, err := FetchNameNode(context.Background(), &Client{}, base)
	if err == nil || !strings.Contains(err.Error(), "--ca-file") {
		t.Fatalf("untrusted certificate: error %v, want a hint at --ca-file", err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(ca, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := FetchNameNode(context.Background(), &Client{CAFile: ca}, base); err != nil {
		t.Fatalf("with --ca-file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.pem")
	os.WriteFile(bad, []byte("not pem"), 0o600)
	if _, err := FetchNameNode(context.Background(), &Client{CAFile: bad}, base); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Fatalf("bad CA file: %v", err)
	}
}

// TestFetchHostile serves the failures a source must turn into a clear
// error naming the URL.
func TestFetchHostile(t *testing.T) {
	other := httptest.NewServer(serve(t))
	defer other.Close()
	release := make(chan struct{})
	defer close(release)
	cases := map[string]struct {
		h      http.HandlerFunc
		client Client
		want   string
	}{
		"slow": {func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}, Client{Timeout: 200 * time.Millisecond}, "timed out"},
		"truncated": {func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "1000")
			w.Write([]byte(`{"beans":[`))
		}, Client{}, "truncated"},
		"truncated json": {func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"beans":[{"name":"Hadoop:service=NameNode,name=NameNodeInfo"`))
		}, Client{}, "malformed JSON"},
		"oversized": {func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(strings.Repeat(" ", 5000)))
		}, Client{MaxBytes: 1000}, "limit"},
		"oversized chunked": {func(w http.ResponseWriter, r *http.Request) {
			for range 5 {
				w.Write([]byte(strings.Repeat(" ", 400)))
				w.(http.Flusher).Flush()
			}
		}, Client{MaxBytes: 1000}, "over the 1000-byte limit"},
		"redirect": {func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusFound)
		}, Client{}, "redirect to " + other.URL},
		"non-200": {func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "no such bean", http.StatusNotFound)
		}, Client{}, "HTTP 404 Not Found: no such bean"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(tc.h)
			defer srv.Close()
			base, _ := BaseURL("--namenode", srv.URL)
			c := tc.client
			_, err := FetchNameNode(context.Background(), &c, base)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), srv.URL) {
				t.Fatalf("error %v, want one naming %s and containing %q", err, srv.URL, tc.want)
			}
		})
	}
}

// TestFetchErrorBodyShown: the body of an error response is the server's
// text, which ckptlint prints on standard error and a CI log keeps: it is
// clipped to 200 bytes on a character boundary and shown on one line with
// visible escapes, so an escape sequence or a workflow command in it
// reaches neither the terminal nor the runner (issue 25, low).
func TestFetchErrorBodyShown(t *testing.T) {
	body := "<html>\x1b]0;owned\x07\x1b[2J\r\n::error::pwned\n##[add-mask]x \u202e" + strings.Repeat("é", 400)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(body))
	}))
	defer srv.Close()
	base, _ := BaseURL("--namenode", srv.URL)
	_, err := FetchNameNode(context.Background(), &Client{}, base)
	if err == nil {
		t.Fatal("no error for HTTP 500")
	}
	msg := err.Error()
	want := `HTTP 500 Internal Server Error: <html>\x1b]0;owned\a\x1b[2J\r\n::error::pwned\n##\x5badd-mask]x \u202eé`
	if !strings.Contains(msg, want) || !strings.HasSuffix(msg, "é…") {
		t.Errorf("error %q, want it to hold %q and end in a clipped é", msg, want)
	}
	for _, r := range msg {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e || r == utf8.RuneError {
			t.Errorf("error %q holds %U", msg, r)
		}
	}
	if n := len(msg); n > 600 {
		t.Errorf("error is %d bytes", n)
	}
}

func TestBaseURL(t *testing.T) {
	for raw, want := range map[string]string{
		"http://admin:s3cret@nn:9870": "credentials in the URL are refused",
		"ftp://nn":                    "http or https",
		"http://":                     "no host",
		"http://nn:9870/jmx?qry=x":    "without a query",
	} {
		_, err := BaseURL("--namenode", raw)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: error %v, want %q and no password", raw, err, want)
		}
	}
	if got := Redact("http://a:b@h/x"); got != "http://h/x" {
		t.Errorf("Redact = %q", got)
	}
}

// TestFetchSubtaskSizes: the URL mode reads the latest completed
// checkpoint's subtask details of every job vertex with state and keeps
// the largest subtask's state_size (docs/facts.md).
func TestFetchSubtaskSizes(t *testing.T) {
	const job = "3a1b2c3d4e5f60718293a4b5c6d7e8f9"
	const big, small = "0a448493b4782967b150582570326227", "bc764cd8ddf7a0cff126f51c16239658"
	sub, err := os.ReadFile(filepath.Join("testdata", "flink-1.18-checkpoint-subtasks.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(filepath.Join("testdata", "flink-1.18-config.json"))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/overview", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"taskmanagers":2,"slots-total":4,"flink-version":"1.18.1"}`))
	})
	mux.HandleFunc("/jobs/"+job+"/checkpoints", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"counts":{"restored":0,"total":3,"in_progress":0,"completed":3,"failed":0},"summary":{},"latest":{"completed":{"id":412,"status":"COMPLETED"},"savepoint":null,"failed":null,"restored":null},"history":[]}`))
	})
	mux.HandleFunc("/jobs/"+job+"/checkpoints/config", func(w http.ResponseWriter, r *http.Request) { w.Write(cfg) })
	mux.HandleFunc("/jobs/"+job+"/checkpoints/details/412", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"id":412,"status":"COMPLETED","tasks":{"` + big + `":{"state_size":47244640256},"` + small + `":{"state_size":1024},"cbc357ccb763df2852fee8c4fc7d55f2":{"state_size":0}}}`))
	})
	mux.HandleFunc("/jobs/"+job+"/checkpoints/details/412/subtasks/"+big, func(w http.ResponseWriter, r *http.Request) { w.Write(sub) })
	mux.HandleFunc("/jobs/"+job+"/checkpoints/details/412/subtasks/"+small, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"id":412,"status":"COMPLETED","num_subtasks":1,"subtasks":[{"index":0,"status":"completed","checkpointed_size":1024,"state_size":1024}]}`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	base, err := BaseURL("--jobmanager", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	obs, _, err := FetchJobManager(context.Background(), &Client{}, base, job)
	if err != nil {
		t.Fatal(err)
	}
	if len(obs) != 5 {
		t.Fatalf("%d observations, want overview, checkpoints, config and two vertices' subtasks", len(obs))
	}
	// The big vertex sorts first: the later, smaller state_size does not replace it.
	out, err := Apply([]byte("deployment \"orders\" {\n  flink_conf = \"conf\"\n}\n"), "c.hcl", obs, Target{Cluster: "main", Deployment: "orders"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "state_size = 14946298033 # from jobmanager "+srv.URL+"/jobs/"+job+"/checkpoints/details/412/subtasks/"+big) {
		t.Errorf("state_size of the largest subtask not written:\n%s", out)
	}
}
