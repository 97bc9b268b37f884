// Package lint is ckptlint's library entry point: it discovers Flink and
// Hadoop configuration files under the given paths, parses them keeping
// positions, groups them into config sets (a Flink configuration plus the
// Hadoop files Flink's HDFS client reads with it), builds each set's Rego
// input document and evaluates the policies on a bounded worker pool.
package lint
