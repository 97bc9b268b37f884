package facts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// NameNodeInfoPath and FSNamesystemStatePath are the JMX servlet queries
// for the NameNode's beans (org.apache.hadoop.jmx.JMXJsonServlet, qry=).
const (
	NameNodeInfoPath      = "/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo"
	FSNamesystemStatePath = "/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState"
)

// FetchNameNode reads the NameNodeInfo and FSNamesystemState beans from
// the NameNode's HTTP server at base (http://nn:9870, Hadoop 2.x :50070).
func FetchNameNode(ctx context.Context, c *Client, base *url.URL) (*Observation, error) {
	info, name, err := c.Get(ctx, base, NameNodeInfoPath)
	if err != nil {
		return nil, err
	}
	state, stateName, err := c.Get(ctx, base, FSNamesystemStatePath)
	if err != nil {
		return nil, err
	}
	var a, b struct {
		Beans []json.RawMessage `json:"beans"`
	}
	if err := decodeJSON(info, &a); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := decodeJSON(state, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", stateName, err)
	}
	merged, err := json.Marshal(struct {
		Beans []json.RawMessage `json:"beans"`
	}{append(a.Beans, b.Beans...)})
	if err != nil {
		return nil, err
	}
	o, err := parseJMX(merged)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	o.Sources = []string{name}
	return o, nil
}

// FetchJobManager reads /overview, /jobs/<id>/checkpoints and
// /jobs/<id>/checkpoints/config from the JobManager's REST endpoint at
// base. With job "" the one RUNNING job of /jobs/overview is used. It
// returns the observations and the job id.
func FetchJobManager(ctx context.Context, c *Client, base *url.URL, job string) ([]*Observation, string, error) {
	var out []*Observation
	get := func(path string) error {
		data, name, err := c.Get(ctx, base, path)
		if err != nil {
			return err
		}
		o, err := Parse(name, data)
		if err != nil {
			return err
		}
		if o.Kind != JobManager {
			return fmt.Errorf("%s: expected a Flink REST response, got %s data", name, o.Kind)
		}
		out = append(out, o)
		return nil
	}
	if err := get("/overview"); err != nil {
		return nil, "", err
	}
	if job == "" {
		data, name, err := c.Get(ctx, base, "/jobs/overview")
		if err != nil {
			return nil, "", err
		}
		var doc struct {
			Jobs []struct {
				ID    string `json:"jid"`
				Name  string `json:"name"`
				State string `json:"state"`
			} `json:"jobs"`
		}
		if err := decodeJSON(data, &doc); err != nil {
			return nil, "", fmt.Errorf("%s: %w", name, err)
		}
		var running []string
		for _, j := range doc.Jobs {
			if j.State == "RUNNING" {
				running = append(running, fmt.Sprintf("%s (%s)", j.ID, j.Name))
				job = j.ID
			}
		}
		switch len(running) {
		case 0:
			return nil, "", fmt.Errorf("%s: no RUNNING job: checkpoint facts need a running job (--job ID)", name)
		case 1:
		default:
			return nil, "", fmt.Errorf("%s: %d RUNNING jobs: pick one with --job: %s", name, len(running), strings.Join(running, ", "))
		}
	}
	if !ValidJobID(job) {
		return nil, "", fmt.Errorf("--job %q: a Flink job id is 32 hexadecimal digits", job)
	}
	if err := get("/jobs/" + job + "/checkpoints"); err != nil {
		return nil, "", err
	}
	if err := get("/jobs/" + job + "/checkpoints/config"); err != nil {
		return nil, "", err
	}
	return out, job, nil
}

// ValidJobID reports whether s is JobID's hex form (org.apache.flink.api.common.JobID, 16
// bytes).
func ValidJobID(s string) bool {
	if len(s) != 32 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}
