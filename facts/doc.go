// Package facts reads numbers about a running HDFS and Flink cluster from
// what operators already have (the NameNode's JMX servlet, `hdfs dfsadmin
// -report`, the Flink JobManager's REST API, `kubectl get flinkdeployment -o
// yaml`) and writes them into .ckptlint.hcl with hclwrite, each value
// followed by a comment naming its source and date (docs/facts.md).
//
// Data flow: a source (file, standard input, or a GET on an explicit URL,
// fetch.go) → Parse (one parser per source, detected from the content) →
// Observation (attribute values for the cluster and deployment blocks) →
// Apply (hclwrite edit of the existing file, everything else kept byte for
// byte). The package imports neither OPA nor the lint packages: facts are an
// input to lint, not part of it.
package facts
