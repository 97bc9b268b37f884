package compose

import (
	"path"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"mvdan.cc/sh/v3/syntax"

	"github.com/ckptlint/ckptlint/internal/deploy"
)

// role is what a service's container runs, from its entrypoint and
// command: the official Flink image's docker-entrypoint.sh takes
// jobmanager, taskmanager and standalone-job as its first argument
// (apache/flink-docker docker-entrypoint.sh; anything else it runs as a
// command), Flink's scripts run the same processes (jobmanager.sh,
// taskmanager.sh, standalone-job.sh, start-cluster.sh: a session cluster
// in one container), `hdfs namenode`/`hdfs datanode` a Hadoop daemon. A
// shell's -c script is parsed (mvdan.cc/sh), never matched as text. With
// neither, an image of a NameNode or DataNode (bde2020/hadoop-namenode)
// is a Hadoop process; "" otherwise.
func (r *reader) role(s types.ServiceConfig) (string, deploy.Loc) {
	words := append(append([]string{}, s.Entrypoint...), s.Command...)
	if role := roleOf(words, 0); role != "" {
		at := "command"
		if roleOf(s.Entrypoint, 0) == role {
			at = "entrypoint"
		}
		return role, r.idx.attrLoc(s.Name, at)
	}
	repo := strings.ToLower(s.Image)
	if i := strings.LastIndexByte(repo, ':'); i > strings.LastIndexByte(repo, '/') {
		repo = repo[:i]
	}
	if base := path.Base(repo); strings.Contains(base, "namenode") || strings.Contains(base, "datanode") {
		return deploy.RoleHadoop, r.idx.attrLoc(s.Name, "image")
	}
	return "", deploy.Loc{}
}

// roleOf is the role a command line runs, "" when it names none.
func roleOf(words []string, depth int) string {
	for i := 0; i < len(words) && depth < 4; i++ {
		w := path.Base(words[i])
		switch w {
		case "jobmanager", "jobmanager.sh":
			return deploy.RoleJobManager
		case "taskmanager", "taskmanager.sh":
			return deploy.RoleTaskManager
		case "standalone-job", "standalone-job.sh":
			return deploy.RoleStandaloneJob
		case "start-cluster.sh":
			return deploy.RoleSession
		case "hdfs":
			if i+1 < len(words) && (words[i+1] == "namenode" || words[i+1] == "datanode") {
				return deploy.RoleHadoop
			}
			return ""
		case "sh", "bash", "dash", "ash":
			for j := i + 1; j+1 < len(words); j++ {
				if strings.HasPrefix(words[j], "-") && strings.Contains(words[j], "c") {
					return scriptRole(words[j+1], depth+1)
				}
			}
			return ""
		case "docker-entrypoint.sh", "/docker-entrypoint.sh", "exec", "tini", "--", "gosu", "env":
			continue // a wrapper: the next word is what runs
		}
		return ""
	}
	return ""
}

// scriptRole is the role of the first command of a shell script that
// names one.
func scriptRole(script string, depth int) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		return ""
	}
	role := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if role != "" {
			return false
		}
		if c, ok := n.(*syntax.CallExpr); ok {
			var words []string
			for _, a := range c.Args {
				words = append(words, wordLit(a))
			}
			role = roleOf(words, depth)
		}
		return true
	})
	return role
}

// wordLit is the literal text of a shell word (quotes removed), "" when
// part of it is an expansion.
func wordLit(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return ""
				}
				b.WriteString(l.Value)
			}
		default:
			return ""
		}
	}
	return b.String()
}
