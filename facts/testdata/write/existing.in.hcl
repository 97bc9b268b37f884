# Team config: keep this comment.
flink_version = "1.18"   # odd spacing stays

cluster "main" {
  # DataNodes, typed by hand last year.
  datanodes    = 3 # old guess
  hadoop_version = "3.3.6"
  write_stall  = "40s"

  facts "namenode" {
    source      = "old"
    observed_at = "2025-01-01T00:00:00Z"
    attributes  = ["datanodes"]
  }
}

rule "CKPT101" { severity = "warning" }

deployment "orders" {
  flink_conf = "jobs/orders/flink-conf.yaml"
  cluster    = "main"
  checkpoint_p99 = "10s"
}
