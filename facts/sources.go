package facts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
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

// FetchJobManager reads /overview, /jobs/<id>/checkpoints,
// /jobs/<id>/checkpoints/config and the subtask details of the latest
// completed checkpoint (subtaskSizes) from the JobManager's REST endpoint at
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
	subtasks, err := subtaskSizes(ctx, c, base, job)
	if err != nil {
		return nil, "", err
	}
	return append(out, subtasks...), job, nil
}

// maxVertices bounds the subtask-details requests of one job.
const maxVertices = 200

// subtaskSizes reads the per-subtask state sizes of the job's latest
// completed checkpoint: its id from /jobs/<id>/checkpoints
// (CheckpointingStatistics latest.completed.id), the job vertices from
// /jobs/<id>/checkpoints/details/<cid> (CheckpointStatistics "tasks", keyed by
// vertex id), and each vertex's
// /jobs/<id>/checkpoints/details/<cid>/subtasks/<vertex>
// (TaskCheckpointStatisticsWithSubtaskDetails). A job with no completed
// checkpoint gives none.
func subtaskSizes(ctx context.Context, c *Client, base *url.URL, job string) ([]*Observation, error) {
	data, name, err := c.Get(ctx, base, "/jobs/"+job+"/checkpoints")
	if err != nil {
		return nil, err
	}
	var stats struct {
		Latest struct {
			Completed *struct {
				ID any `json:"id"`
			} `json:"completed"`
		} `json:"latest"`
	}
	if err := decodeJSON(data, &stats); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if stats.Latest.Completed == nil {
		return nil, nil
	}
	cid, ok := whole(stats.Latest.Completed.ID)
	if !ok || cid < 0 {
		return nil, fmt.Errorf("%s: latest.completed.id must be a whole number", name)
	}
	details := fmt.Sprintf("/jobs/%s/checkpoints/details/%d", job, cid)
	data, name, err = c.Get(ctx, base, details)
	if err != nil {
		return nil, err
	}
	var cs struct {
		Tasks map[string]struct {
			StateSize any `json:"state_size"`
		} `json:"tasks"`
	}
	if err := decodeJSON(data, &cs); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var vertices []string
	for v, t := range cs.Tasks {
		if size, ok := whole(t.StateSize); ok && size > 0 && ValidJobID(v) {
			vertices = append(vertices, v) // a vertex id is 16 bytes in hex, like a job id
		}
	}
	sort.Strings(vertices)
	if len(vertices) > maxVertices {
		return nil, fmt.Errorf("%s: %d job vertices with state; ckptlint reads at most %d", name, len(vertices), maxVertices)
	}
	var out []*Observation
	for _, v := range vertices {
		data, name, err := c.Get(ctx, base, details+"/subtasks/"+v)
		if err != nil {
			return nil, err
		}
		o, err := Parse(name, data)
		if err != nil {
			return nil, err
		}
		if o.Kind != JobManager {
			return nil, fmt.Errorf("%s: expected a Flink REST response, got %s data", name, o.Kind)
		}
		out = append(out, o)
	}
	return out, nil
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
