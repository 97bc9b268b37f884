flink_version  = "1.17"
hadoop_version = "3.2.1"
