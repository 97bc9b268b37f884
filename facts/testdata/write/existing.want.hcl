# Team config: keep this comment.
flink_version = "1.18"   # odd spacing stays

cluster "main" {
  # DataNodes, typed by hand last year.
  datanodes    = 6 # from namenode namenode-3.3.json, 2026-12-01; in-service DataNodes of 7 live in NameNodeInfo.LiveNodes; FSNamesystemState NumLiveDataNodes 7, NumDecomLiveDataNodes 0
  hadoop_version = "3.3.6"
  write_stall  = "40s"

  datanode_free_bytes = 2048000000 # from namenode namenode-3.3.json, 2026-12-01; least remaining on dn1.example.com:9866; min/median/max 1.9 GiB / 4.0 GiB / 5.6 GiB over 6 in-service DataNodes
  datanode_blocks = 3100000 # from namenode namenode-3.3.json, 2026-12-01; most blocks on dn1.example.com:9866; min/median/max 2700000 / 2925000 / 3100000 over 6 in-service DataNodes
  datanode_blocks_scheduled = 312 # from namenode namenode-3.3.json, 2026-12-01; most blocks scheduled on dn1.example.com:9866; min/median/max 77 / 130 / 312 over 6 in-service DataNodes
  datanode_hadoop_version = "3.3.4" # from namenode namenode-3.3.json, 2026-12-01; DataNodes run 3.3.4 (1), 3.3.6 (5); NameNode SoftwareVersion 3.3.6
  facts "namenode" {
    source      = "namenode-3.3.json"
    observed_at = "2026-12-01T08:00:00Z"
    attributes  = ["datanodes", "datanode_free_bytes", "datanode_blocks", "datanode_blocks_scheduled", "datanode_hadoop_version"]
  }
}

rule "CKPT101" { severity = "warning" }

deployment "orders" {
  flink_conf = "jobs/orders/flink-conf.yaml"
  cluster    = "main"
  checkpoint_p99 = "41230ms" # from jobmanager flink-1.18-checkpoints.json, 2026-12-01; /jobs/<id>/checkpoints summary.end_to_end_duration.p99 41230 ms; counts completed 400, failed 12, restored 1
  taskmanagers = 4 # from jobmanager flink-1.18-overview.json, 2026-12-01; /overview taskmanagers
  slots_per_taskmanager = 2 # from jobmanager flink-1.18-overview.json, 2026-12-01; /overview slots-total 8 / taskmanagers 4
  flink_version = "1.18.1" # from jobmanager flink-1.18-overview.json, 2026-12-01; /overview flink-version
  checkpoint_failed = 12 # from jobmanager flink-1.18-checkpoints.json, 2026-12-01; /jobs/<id>/checkpoints counts.failed; counts completed 400, failed 12, restored 1
  checkpoint_size = 2097152 # from jobmanager flink-1.18-checkpoints.json, 2026-12-01; /jobs/<id>/checkpoints summary.checkpointed_size.p99, 2.0 MiB
  running_checkpointing {
    job_id = "3a1b2c3d4e5f60718293a4b5c6d7e8f9" # from jobmanager flink-1.18-config.json, 2026-12-01; --job
    interval = "1m" # from jobmanager flink-1.18-config.json, 2026-12-01; interval 60000 ms
    timeout = "30m" # from jobmanager flink-1.18-config.json, 2026-12-01; timeout 1800000 ms
    min_pause = "5s" # from jobmanager flink-1.18-config.json, 2026-12-01; min_pause 5000 ms
    max_concurrent = 1 # from jobmanager flink-1.18-config.json, 2026-12-01; max_concurrent
    tolerable_failures = 3 # from jobmanager flink-1.18-config.json, 2026-12-01; tolerable_failed_checkpoints
    unaligned = true # from jobmanager flink-1.18-config.json, 2026-12-01; unaligned_checkpoints
  }
  facts "jobmanager" {
    source      = "flink-1.18-overview.json, flink-1.18-checkpoints.json, flink-1.18-config.json"
    observed_at = "2026-12-01T08:00:00Z"
    attributes  = ["taskmanagers", "slots_per_taskmanager", "flink_version", "checkpoint_failed", "checkpoint_p99", "checkpoint_size", "running_checkpointing"]
  }
}
