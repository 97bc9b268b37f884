flink_version = "1.15"
