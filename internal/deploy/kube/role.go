package kube

import (
	"path"
	"strings"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// roleOf is the role a container's command and arguments run. The
// official Flink image's docker-entrypoint.sh (apache/flink-docker,
// e.g. 1.20/scala_2.12-java11-ubuntu) reads its first argument:
// "jobmanager" runs jobmanager.sh start-foreground, "standalone-job"
// standalone-job.sh, "taskmanager" taskmanager.sh, "history-server"
// historyserver.sh; anything else is executed as given. A command that
// names a start script (jobmanager.sh, taskmanager.sh, standalone-job.sh,
// start-cluster.sh, directly or in a `sh -c` script) runs it; `hdfs
// namenode` / `hdfs datanode` run Hadoop. "" when none is named.
func roleOf(argv []string) string {
	var words []string
	for _, a := range argv {
		// A shell script (`sh -c "..."`) is read word by word; so is any
		// argument, which costs nothing for plain ones.
		words = append(words, strings.FieldsFunc(a, func(r rune) bool {
			return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '&' || r == '|' || r == '"' || r == '\''
		})...)
	}
	for i, w := range words {
		switch path.Base(w) {
		case "jobmanager", "jobmanager.sh":
			return deploy.RoleJobManager
		case "taskmanager", "taskmanager.sh":
			return deploy.RoleTaskManager
		case "standalone-job", "standalone-job.sh":
			return deploy.RoleStandaloneJob
		case "start-cluster.sh":
			return deploy.RoleSession
		case "hdfs", "hadoop":
			if i+1 < len(words) {
				switch words[i+1] {
				case "namenode", "datanode", "journalnode", "secondarynamenode":
					return deploy.RoleHadoop
				}
			}
		}
	}
	return ""
}

// roleLabels are the pod labels that name a Flink component: Flink's
// standalone Kubernetes docs label the JobManager and TaskManager pods
// `component: jobmanager|taskmanager` (and native Kubernetes deployments
// label theirs the same way, KubernetesUtils.getJobManagerSelectors);
// charts use the recommended app.kubernetes.io/component.
var roleLabels = []string{"component", "app.kubernetes.io/component"}

// roleOfLabel maps a component label's value to a role.
func roleOfLabel(v string) string {
	switch strings.ToLower(v) {
	case "jobmanager", "job-manager":
		return deploy.RoleJobManager
	case "taskmanager", "task-manager":
		return deploy.RoleTaskManager
	case "namenode", "datanode":
		return deploy.RoleHadoop
	}
	return ""
}

// appLabels name the application a pod belongs to, in the order they are
// read for the Group: Flink's docs use `app: flink`; charts the
// recommended labels (Kubernetes docs, "Recommended Labels").
var appLabels = []string{"app", "app.kubernetes.io/instance", "app.kubernetes.io/name"}

// namespaceOf is the namespace an object is created in: objects that name
// none go where kubectl puts them, the context's namespace, "default"
// unless told (kubectl apply --namespace).
func namespaceOf(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}
