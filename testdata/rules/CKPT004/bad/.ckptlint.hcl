# The cluster runs Flink 1.20 (declared), but the image the Dockerfile
# builds is Flink 1.17: one of the two is wrong, and ckptlint goes by the
# declaration (CKPT004 names both).
flink_version = "1.20"
