# Fixture for the inline-suppression tests (lint/suppress_test.go): story
# (b)'s cluster, a Flink file with ignores of every kind, and a rule block
# that turns CKPT302 off (an ignore naming it is dormant, not unused).
flink_version  = "1.13"
hadoop_version = "3.1.0"

cluster "shared" {
  datanodes           = 20
  datanode_free_bytes = "20t"
  datanode_blocks     = 100000000
  write_stall         = "38s"
}

deployment "suppress" {
  flink_conf        = "flink/flink-conf.yaml"
  hadoop_conf       = "hadoop/client"
  cluster_hdfs_site = "hadoop/cluster/hdfs-site.xml"
  cluster           = "shared"
}

rule "CKPT302" {
  enabled = false
}
