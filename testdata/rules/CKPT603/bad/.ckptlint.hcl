deployment "upgraded-to-1-20" {
  flink_conf    = "v1.20/conf"
  flink_version = "1.20"
}

deployment "upgraded-to-2-0" {
  flink_conf    = "v2.0/conf"
  flink_version = "2.0"
}
