path_mappings = {
  "/etc/hadoop/conf" = "hadoop-conf"
}
