package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// role is the Flink process a start script runs, from its name and first
// argument (flink-dist/src/main/flink-bin/bin: start-cluster.sh starts
// the JobManager and the TaskManagers of conf/masters and conf/workers;
// jobmanager.sh, taskmanager.sh and standalone-job.sh take
// start|start-foreground|stop|stop-all; the flink CLI's run and
// run-application submit a job), "" for anything else (stop, a status).
func role(name, first string) (string, string) {
	starts := first == "start" || first == "start-foreground"
	switch {
	case name == "start-cluster.sh":
		return deploy.RoleSession, name
	case name == "jobmanager.sh" && starts:
		return deploy.RoleJobManager, name + " " + first
	case name == "taskmanager.sh" && starts:
		return deploy.RoleTaskManager, name + " " + first
	case name == "standalone-job.sh" && starts:
		return deploy.RoleStandaloneJob, name + " " + first
	case name == "flink" && (first == "run" || first == "run-application"):
		return deploy.RoleClient, name + " " + first
	}
	return "", ""
}

// start reads a command that starts Flink: a Workload with Source
// "shell" and no image (a host install), the environment it inherits and
// FLINK_HOME: Flink's bin/config.sh sets FLINK_HOME to the parent of the
// directory the script lies in, whatever the environment says (release
// 1.20, config.sh L189-191, "Define the main directory of the flink
// installation"), and FLINK_CONF_DIR to $FLINK_HOME/conf unless set
// (L202).
func (r *reader) start(c *syntax.CallExpr, name string, rest []*syntax.Word, prefix []deploy.EnvVar) {
	first := ""
	if len(rest) > 0 {
		first, _ = r.eval(rest[0], true)
	}
	ro, what := role(name, first)
	if ro == "" || r.full(len(r.res.Workloads)) {
		return
	}
	at := r.loc(c.Pos())
	w := &deploy.Workload{Name: what, Source: "shell", Loc: at, Role: ro, RoleLoc: at, Group: r.file, Env: r.environ(prefix)}
	if home := r.flinkHome(c, name); home != "" {
		w.Env = append(w.Env, deploy.EnvVar{Name: "FLINK_HOME", Value: home, Loc: at})
	}
	r.res.Workloads = append(r.res.Workloads, w)
}

// flinkHome is the installation a start script's path names
// (/opt/flink/bin/start-cluster.sh: /opt/flink), "" when the path is not
// known (the script is taken from PATH, or a variable the script does not
// set names its directory).
func (r *reader) flinkHome(c *syntax.CallExpr, name string) string {
	for _, w := range c.Args {
		if lastLit(w) != name {
			continue
		}
		p, known := r.eval(w, true)
		if !known || !strings.Contains(p, "/") {
			return ""
		}
		p = r.abs(p)
		if !path.IsAbs(p) || path.Base(path.Dir(p)) != "bin" {
			return ""
		}
		return path.Dir(path.Dir(p))
	}
	return ""
}
