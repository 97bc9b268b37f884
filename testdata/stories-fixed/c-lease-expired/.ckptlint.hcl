# Story (c): checkpoints every 5 s that overlap, expire and are subsumed while
# tasks still write into chk-N; on Hadoop 2 the NameNode answers
# "LeaseExpiredException: No lease on .../chk-355/... File does not exist"
# and with tolerable-failed-checkpoints 0 each one restarts the job.
flink_version  = "1.15"
hadoop_version = "2.7.3"

# The blog: checkpoints failed with 5 s and with 20 s alike, so they take
# longer than 20 s when HDFS is busy.
deployment "point-wide-table" {
  flink_conf     = "conf"
  checkpoint_p99 = "25s"
}
