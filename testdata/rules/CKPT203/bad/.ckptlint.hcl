flink_version = "1.18"
