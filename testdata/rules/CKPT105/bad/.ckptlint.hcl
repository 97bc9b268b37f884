# The largest subtask's checkpointed state, as the Flink web UI's checkpoint
# details (or ckptlint facts --jobmanager) report it: above the 9.8 GiB a
# file of 1 MiB blocks can hold on Hadoop 3 (10000 blocks per file by
# default from 3.0, HDFS-5517).
hadoop_version = "3.3.6"

deployment "orders" {
  flink_conf = "flink-conf.yaml"
  state_size = "12g"
}
