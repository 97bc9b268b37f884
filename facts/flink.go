package facts

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"go.yaml.in/yaml/v3"
)

// parseOverview reads the JobManager's GET /overview, Flink's
// ClusterOverviewWithVersion (org.apache.flink.runtime.rest.handler.legacy.messages,
// REST API docs "/overview"): "taskmanagers", "slots-total",
// "flink-version" (the same in 1.15 to 2.x). Newer releases also send
// "taskmanagers-blocked" and "slots-free-and-blocked" (ClusterOverview's
// FIELD_NAME_TASKMANAGERS_BLOCKED and FIELD_NAME_SLOTS_FREE_AND_BLOCKED,
// present only when non-zero per flink-runtime-web's Overview interface);
// they are not read.
func parseOverview(data []byte) (*Observation, error) {
	var doc map[string]any
	if err := decodeJSON(data, &doc); err != nil {
		return nil, err
	}
	tms, ok1 := whole(doc["taskmanagers"])
	slots, ok2 := whole(doc["slots-total"])
	if !ok1 || !ok2 || tms < 0 || slots < 0 {
		return nil, errors.New(`/overview: "taskmanagers" and "slots-total" must be whole numbers`)
	}
	// The TaskManagers and slots are this Flink cluster's: deployment
	// facts, so two Flink clusters on one HDFS cluster keep their own.
	o := &Observation{Kind: JobManager}
	if tms > 0 {
		o.Deployment = append(o.Deployment, intValue("taskmanagers", tms, "/overview taskmanagers"))
		per := slots / tms
		note := fmt.Sprintf("/overview slots-total %d / taskmanagers %d", slots, tms)
		if slots%tms != 0 {
			note += " is not whole: TaskManagers differ, written rounded down"
		}
		if per > 0 {
			o.Deployment = append(o.Deployment, intValue("slots_per_taskmanager", per, note))
		}
	}
	if v, _ := doc["flink-version"].(string); v != "" {
		if p := versionPrefix().FindString(v); p != "" {
			note := "/overview flink-version"
			if p != v {
				note += " " + v
			}
			o.Deployment = append(o.Deployment, strValue("flink_version", p, note))
		}
	}
	return o, nil
}

// parseCheckpoints reads GET /jobs/<id>/checkpoints, Flink's
// CheckpointingStatistics (org.apache.flink.runtime.rest.messages.checkpoints):
// "counts" {restored, total, in_progress, completed, failed} and "summary"
// whose entries are StatsSummaryDto {min, max, avg, p50, p90, p95, p99,
// p999} in Flink 1.15 to 2.x. 1.15 added "checkpointed_size" (what the checkpoint
// persisted, the incremental part) beside "state_size"; before 1.15 the summary entries were
// MinMaxAvgStatistics without percentiles and there was no checkpointed_size,
// so the max is used and the comment says so. Percentiles are doubles, which
// Jackson writes as "NaN" strings when no checkpoint completed.
func parseCheckpoints(data []byte) (*Observation, error) {
	var doc struct {
		Counts  map[string]any            `json:"counts"`
		Summary map[string]map[string]any `json:"summary"`
	}
	if err := decodeJSON(data, &doc); err != nil {
		return nil, err
	}
	if doc.Counts == nil || doc.Summary == nil {
		return nil, errors.New(`/jobs/<id>/checkpoints: "counts" and "summary" must be objects`)
	}
	o := &Observation{Kind: JobManager}
	completed, _ := whole(doc.Counts["completed"])
	failed, okF := whole(doc.Counts["failed"])
	restored, _ := whole(doc.Counts["restored"])
	counts := fmt.Sprintf("counts completed %d, failed %d, restored %d", completed, failed, restored)
	if okF && failed >= 0 {
		o.Deployment = append(o.Deployment, intValue("checkpoint_failed", failed, "/jobs/<id>/checkpoints counts.failed; "+counts))
	}
	// pick returns summary[field].p99, or its max when the release reports
	// no percentiles.
	pick := func(field string) (int64, string, bool) {
		s, ok := doc.Summary[field]
		if !ok || s == nil {
			return 0, "", false
		}
		if v, ok := num(s["p99"]); ok && v >= 0 && !math.IsInf(v, 0) {
			return int64(math.Round(v)), "summary." + field + ".p99", true
		}
		if _, has := s["p99"]; !has {
			if v, ok := whole(s["max"]); ok && v >= 0 {
				return v, "summary." + field + ".max (this Flink reports no percentiles)", true
			}
		}
		return 0, "", false
	}
	if completed > 0 {
		if ms, from, ok := pick("end_to_end_duration"); ok {
			o.Deployment = append(o.Deployment, strValue("checkpoint_p99", Millis(ms),
				fmt.Sprintf("/jobs/<id>/checkpoints %s %d ms; %s", from, ms, counts)))
		}
		size, from, ok := pick("checkpointed_size")
		if !ok {
			size, from, ok = pick("state_size")
		}
		if ok {
			o.Deployment = append(o.Deployment, intValue("checkpoint_size", size,
				fmt.Sprintf("/jobs/<id>/checkpoints %s, %s", from, HumanBytes(size))))
		}
	}
	return o, nil
}

// parseSubtaskCheckpoint reads GET
// /jobs/<id>/checkpoints/details/<checkpoint>/subtasks/<vertex>, Flink's
// TaskCheckpointStatisticsWithSubtaskDetails
// (org.apache.flink.runtime.rest.messages.checkpoints, release-1.18.0):
// "id" (the checkpoint), "status", "num_subtasks" and "subtasks", each a
// SubtaskCheckpointStatistics with "index" and "status", and for a subtask
// that acknowledged the checkpoint "state_size" (SubtaskStateStats.getStateSize:
// the size of the subtask's checkpointed state; from 1.15, FLINK-25557, the
// full size, with the incremental part beside it as "checkpointed_size").
// The largest subtask's state_size is written as the deployment's
// state_size: a savepoint or full checkpoint writes a subtask's keyed state
// as one file, whose size CKPT105 compares with the largest file HDFS allows.
// Before 1.15 an incremental checkpoint's state_size is what that checkpoint
// uploaded, a lower bound of the full state, and the comment says so.
func parseSubtaskCheckpoint(data []byte) (*Observation, error) {
	var doc struct {
		ID          any    `json:"id"`
		Status      string `json:"status"`
		NumSubtasks any    `json:"num_subtasks"`
		Subtasks    []struct {
			Index            any    `json:"index"`
			Status           string `json:"status"`
			StateSize        any    `json:"state_size"`
			CheckpointedSize any    `json:"checkpointed_size"`
		} `json:"subtasks"`
	}
	if err := decodeJSON(data, &doc); err != nil {
		return nil, err
	}
	n, ok := whole(doc.NumSubtasks)
	if !ok || n < 0 || doc.Subtasks == nil {
		return nil, errors.New(`/jobs/<id>/checkpoints/details/<checkpoint>/subtasks/<vertex>: "num_subtasks" must be a whole number and "subtasks" a list`)
	}
	id, _ := whole(doc.ID)
	best, bestIndex, acked, full := int64(-1), int64(-1), 0, false
	for _, s := range doc.Subtasks {
		size, ok := whole(s.StateSize)
		if !ok || size < 0 {
			continue // a pending subtask has no sizes
		}
		acked++
		if _, has := whole(s.CheckpointedSize); has {
			full = true
		}
		if size > best {
			idx, _ := whole(s.Index)
			best, bestIndex = size, idx
		}
	}
	if acked == 0 {
		return nil, fmt.Errorf("checkpoint %d: no subtask reports a state_size (status %s): read the subtasks of a completed checkpoint", id, doc.Status)
	}
	note := fmt.Sprintf("checkpoint %d (%s), subtask %d: state_size %s, the largest of %d subtask(s) that reported one", id, strings.ToLower(doc.Status), bestIndex, HumanBytes(best), acked)
	if !full {
		note += "; this Flink reports no checkpointed_size (before 1.15): for an incremental checkpoint state_size is what that checkpoint uploaded, a lower bound of the subtask's state"
	}
	return &Observation{Kind: JobManager, Deployment: []Value{intValue("state_size", best, note)}}, nil
}

// parseCheckpointConfig reads GET /jobs/<id>/checkpoints/config, Flink's
// CheckpointConfigInfo: "interval", "timeout", "min_pause" (milliseconds),
// "max_concurrent", "unaligned_checkpoints" and
// "tolerable_failed_checkpoints" (all present in 1.15 to 2.x; fields added
// later are not read). An interval of Long.MAX_VALUE means periodic
// checkpoints are off.
func parseCheckpointConfig(data []byte) (*Observation, error) {
	var doc map[string]any
	if err := decodeJSON(data, &doc); err != nil {
		return nil, err
	}
	o := &Observation{Kind: JobManager}
	dur := func(field, attr string) error {
		ms, ok := whole(doc[field])
		if !ok || ms < 0 {
			return fmt.Errorf("/jobs/<id>/checkpoints/config: %q must be a whole number of milliseconds", field)
		}
		if ms == math.MaxInt64 {
			o.Running = append(o.Running, Value{Attr: attr, Val: cty.StringVal("0s"),
				Note: fmt.Sprintf("%s is Long.MAX_VALUE: periodic checkpoints are disabled", field)})
			return nil
		}
		o.Running = append(o.Running, strValue(attr, Millis(ms), fmt.Sprintf("%s %d ms", field, ms)))
		return nil
	}
	for _, f := range [][2]string{{"interval", "interval"}, {"timeout", "timeout"}, {"min_pause", "min_pause"}} {
		if err := dur(f[0], f[1]); err != nil {
			return nil, err
		}
	}
	if n, ok := whole(doc["max_concurrent"]); ok {
		o.Running = append(o.Running, intValue("max_concurrent", n, "max_concurrent"))
	}
	if n, ok := whole(doc["tolerable_failed_checkpoints"]); ok {
		o.Running = append(o.Running, intValue("tolerable_failures", n, "tolerable_failed_checkpoints"))
	}
	if b, ok := doc["unaligned_checkpoints"].(bool); ok {
		o.Running = append(o.Running, Value{Attr: "unaligned", Val: cty.BoolVal(b), Note: "unaligned_checkpoints"})
	}
	return o, nil
}

// parseKubectl reads `kubectl get flinkdeployment NAME -o yaml` (or a List
// of exactly one); parseKubectlDoc reads the decoded document, which `-o
// json` gives as well (parseJSON).
func parseKubectl(data []byte) (*Observation, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("neither JSON, `hdfs dfsadmin -report` output nor YAML: %v", err)
	}
	if doc == nil {
		return nil, errors.New("not a recognised source: expected NameNode JMX JSON, `hdfs dfsadmin -report` output, a Flink REST response or `kubectl get flinkdeployment -o yaml|json` output")
	}
	return parseKubectlDoc(doc)
}

// parseKubectlDoc reads the Flink Kubernetes Operator's FlinkDeployment CRD
// (flink.apache.org/v1beta1, FlinkDeploymentSpec): spec.flinkVersion
// ("v1_18", the FlinkVersion enum), spec.job.parallelism,
// spec.taskManager.replicas and spec.flinkConfiguration
// "taskmanager.numberOfTaskSlots"; without replicas, the operator's own
// status.taskManager.replicas (TaskManagerInfo, which
// ReconciliationUtils.getTaskManagerInfo sets for a running job to
// FlinkUtils.getNumTaskManagers, ceil(parallelism / slots)), else that
// computation. Every value is the Flink cluster's: a deployment fact.
func parseKubectlDoc(doc map[string]any) (*Observation, error) {
	if doc["kind"] == "List" {
		items, _ := doc["items"].([]any)
		if len(items) != 1 {
			return nil, fmt.Errorf("a kubectl List of %d items: name one FlinkDeployment (kubectl get flinkdeployment NAME -o yaml)", len(items))
		}
		doc, _ = items[0].(map[string]any)
	}
	if doc["kind"] != "FlinkDeployment" {
		return nil, fmt.Errorf("a document of kind %v, not a FlinkDeployment: expected `kubectl get flinkdeployment NAME -o yaml` (or -o json) output", doc["kind"])
	}
	spec, _ := doc["spec"].(map[string]any)
	if spec == nil {
		return nil, errors.New("FlinkDeployment without a spec")
	}
	o := &Observation{Kind: Kubectl}
	if v, _ := spec["flinkVersion"].(string); v != "" {
		ver := strings.ReplaceAll(strings.TrimPrefix(strings.TrimPrefix(v, "v"), "V"), "_", ".")
		if versionPrefix().MatchString(ver) {
			o.Deployment = append(o.Deployment, strValue("flink_version", versionPrefix().FindString(ver), "spec.flinkVersion "+v))
		}
	}
	var parallelism int64 = -1
	if job, _ := spec["job"].(map[string]any); job != nil {
		if n, ok := yamlInt(job["parallelism"]); ok && n > 0 {
			parallelism = n
			o.Deployment = append(o.Deployment, intValue("parallelism", n, "spec.job.parallelism"))
		}
	}
	slots := kubectlSlots(o, spec)
	kubectlTaskManagers(o, doc, spec, parallelism, slots)
	if len(o.Deployment) == 0 {
		return nil, errors.New("the FlinkDeployment sets none of spec.flinkVersion, spec.job.parallelism, spec.taskManager.replicas, taskmanager.numberOfTaskSlots")
	}
	return o, nil
}

// kubectlSlots adds taskmanager.numberOfTaskSlots of spec.flinkConfiguration
// (flat, or nested as the operator's YAML form allows) and returns it, -1
// when unset.
func kubectlSlots(o *Observation, spec map[string]any) int64 {
	conf, _ := spec["flinkConfiguration"].(map[string]any)
	if conf == nil {
		return -1
	}
	v := conf["taskmanager.numberOfTaskSlots"]
	if v == nil {
		if tm, _ := conf["taskmanager"].(map[string]any); tm != nil {
			v = tm["numberOfTaskSlots"]
		}
	}
	n, ok := yamlInt(v)
	if !ok || n <= 0 {
		return -1
	}
	o.Deployment = append(o.Deployment, intValue("slots_per_taskmanager", n, "spec.flinkConfiguration taskmanager.numberOfTaskSlots"))
	return n
}

// kubectlTaskManagers adds the TaskManagers: spec.taskManager.replicas,
// else the operator's status.taskManager.replicas, else ceil(parallelism /
// slots) as the operator's native mode starts them.
func kubectlTaskManagers(o *Observation, doc, spec map[string]any, parallelism, slots int64) {
	res := ""
	tm, _ := spec["taskManager"].(map[string]any)
	if r, _ := tm["resource"].(map[string]any); r != nil {
		res = fmt.Sprintf("; taskManager.resource memory %v, cpu %v", r["memory"], r["cpu"])
	}
	var observed int64 = -1
	st, _ := doc["status"].(map[string]any)
	if tmi, _ := st["taskManager"].(map[string]any); tmi != nil {
		if n, ok := yamlInt(tmi["replicas"]); ok && n > 0 {
			observed = n
		}
	}
	switch n, ok := yamlInt(tm["replicas"]); {
	case ok && n > 0:
		o.Deployment = append(o.Deployment, intValue("taskmanagers", n, "spec.taskManager.replicas"+res))
	case observed > 0:
		o.Deployment = append(o.Deployment, intValue("taskmanagers", observed,
			"status.taskManager.replicas, what the operator runs the job with (no spec.taskManager.replicas)"+res))
	case parallelism > 0 && slots > 0:
		n := (parallelism + slots - 1) / slots
		o.Deployment = append(o.Deployment, intValue("taskmanagers", n,
			fmt.Sprintf("no spec.taskManager.replicas: ceil(parallelism %d / slots %d), as the operator's native mode starts them%s", parallelism, slots, res)))
	}
}

// yamlInt reads a whole number as YAML (int) or JSON (json.Number)
// decoding gives it, or a string holding one (Kubernetes manifests quote
// numbers in flinkConfiguration).
func yamlInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		return n, err == nil
	}
	return 0, false
}
