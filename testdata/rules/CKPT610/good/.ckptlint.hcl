flink_version = "1.20"
facts_max_age = "36500d"

deployment "etl" {
  flink_conf = "flink-conf.yaml"

  running_checkpointing {
    job_id             = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
    interval           = "1m"
    timeout            = "10m"
    min_pause          = "0s"
    max_concurrent     = 1
    tolerable_failures = 3
    unaligned          = false
  }
  facts "jobmanager" {
    source      = "http://jm:8081/jobs/a1b2c3d4e5f60718293a4b5c6d7e8f90/checkpoints/config"
    observed_at = "2026-12-01T08:00:00Z"
    attributes  = ["running_checkpointing"]
  }
}
