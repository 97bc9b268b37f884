# Every kind of mistake Load and Validate report; see golden_test.go.
flink_version = "1.20-SNAPSHOT"
policy_dir    = ["policies"]
ignore        = ["legacy/**", "bad/["]

path_mappings = {
  "etc/hadoop/conf" = "hadoop/conf"
}

cluster "prod" {
  datanode            = 3
  taskmanagers        = "twenty"
  datanode_free_bytes = "43 gigs"
  write_stall         = 40
  slots_per_taskmanager = 0
}

cluster "prod" {
  datanodes = 5
}

deployment "etl" {
  flink_conf     = "jobs/etl/conf"
  cluster        = "prd"
  checkpoint_p99 = "1.5 min"
}

rule "CKPT11" {
  enabled = false
}

rule "CKPT101" {
  severity = "warn"
}

rule "CKPT101" {
  enabled = yes
}
