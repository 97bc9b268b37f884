flink_taskmanager_slots: 8
