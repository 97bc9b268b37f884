flink_version = "1.13"
