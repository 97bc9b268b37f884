// Package model turns a config set (a Flink configuration plus the Hadoop
// files Flink's HDFS client will read, the cluster's own hdfs-site.xml and
// the facts declared in .ckptlint.hcl) into the Rego input document: raw
// keys as each system sees them and the effective, typed values Flink and
// the HDFS client will use, each with its source location or "default".
//
// Flink and Hadoop semantics (units, key fallbacks, deprecations per
// version, defaults, Hadoop <final>, Flink's Hadoop-configuration lookup
// order) live here; risk judgments live in the Rego policies. Every fact
// cites its upstream source: a Flink or Hadoop source file, test, JIRA or
// release note.
package model
