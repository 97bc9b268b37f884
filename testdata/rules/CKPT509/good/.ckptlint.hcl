flink_version = "1.16"
