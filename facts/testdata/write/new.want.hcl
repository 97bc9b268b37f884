deployment "orders" {
  flink_conf = "conf"
  flink_version = "1.18" # from kubectl kubectl-flinkdeployment.yaml, 2026-12-01; spec.flinkVersion v1_18
  parallelism = 8 # from kubectl kubectl-flinkdeployment.yaml, 2026-12-01; spec.job.parallelism
  slots_per_taskmanager = 2 # from kubectl kubectl-flinkdeployment.yaml, 2026-12-01; spec.flinkConfiguration taskmanager.numberOfTaskSlots
  taskmanagers = 4 # from kubectl kubectl-flinkdeployment.yaml, 2026-12-01; spec.taskManager.replicas; taskManager.resource memory 4096m, cpu 2
  facts "kubectl" {
    source      = "kubectl-flinkdeployment.yaml"
    observed_at = "2026-12-01T08:00:00Z"
    attributes  = ["flink_version", "parallelism", "slots_per_taskmanager", "taskmanagers"]
  }
}

cluster "prod" {
  datanodes = 3 # from dfsadmin dfsadmin-3.3.txt, 2026-12-01; in-service DataNodes of 4 live in the Live datanodes section
  datanode_free_bytes = 2048000000 # from dfsadmin dfsadmin-3.3.txt, 2026-12-01; least remaining on 10.0.0.1:9866; min/median/max 1.9 GiB / 3.3 GiB / 5.6 GiB over 3 in-service DataNodes
  datanode_blocks = 3100000 # from dfsadmin dfsadmin-3.3.txt, 2026-12-01; most blocks on 10.0.0.1:9866; min/median/max 2700000 / 2900000 / 3100000 over 3 in-service DataNodes
  facts "dfsadmin" {
    source      = "dfsadmin-3.3.txt"
    observed_at = "2026-12-01T08:00:00Z"
    attributes  = ["datanodes", "datanode_free_bytes", "datanode_blocks"]
  }
}
