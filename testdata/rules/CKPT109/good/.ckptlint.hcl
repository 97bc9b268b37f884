deployment "cluster" {
  flink_conf        = "cluster/flink"
  hadoop_conf       = "cluster/hadoop/client"
  cluster_hdfs_site = "cluster/hadoop/cluster/hdfs-site.xml"
}
