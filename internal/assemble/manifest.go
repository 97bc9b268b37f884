package assemble

import (
	"slices"

	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
	"github.com/ckptlint/ckptlint/internal/model"
)

// manifestModel carries the FlinkDeployment facts outside
// flinkConfiguration into the policy input.
func manifestModel(fd *flinkyaml.Deployment) *model.Manifest {
	m := &model.Manifest{Name: fd.Name, Namespace: fd.Namespace, FlinkVersion: fd.FlinkVersion}
	if fd.Mode != nil {
		m.Mode = fd.Mode.Value
	}
	conv := func(f *flinkyaml.Field) *model.Field {
		if f == nil {
			return nil
		}
		return &model.Field{Value: f.Value, Loc: model.LocOf(fd.Config.Path, f.Span)}
	}
	m.JobParallelism = conv(fd.JobParallelism)
	m.TaskManagerReplicas = conv(fd.TaskManagerReplicas)
	m.UpgradeMode = conv(fd.UpgradeMode)
	m.Mounts = podMounts(fd)
	return m
}

// podMounts resolves the volume mounts of the Flink main container of the
// JobManager and TaskManager pods. The operator layers spec.podTemplate
// under the component's podTemplate (flink-kubernetes-operator docs, "Pod
// Template"); a mount's volume is looked up by name in the component's
// template first, then in spec.podTemplate, and a mount path declared in
// both is the component's.
func podMounts(fd *flinkyaml.Deployment) map[string][]model.Mount {
	out := map[string][]model.Mount{}
	for _, comp := range []struct{ name, where string }{
		{"jobmanager", "spec.jobManager.podTemplate"}, {"taskmanager", "spec.taskManager.podTemplate"},
	} {
		var layers []*flinkyaml.PodTemplate
		for i := range fd.PodTemplates {
			if t := &fd.PodTemplates[i]; t.Where == "spec.podTemplate" || t.Where == comp.where {
				layers = append(layers, t)
			}
		}
		volume := func(name string) (*flinkyaml.Volume, bool) {
			for i := len(layers) - 1; i >= 0; i-- {
				for j := range layers[i].Volumes {
					if layers[i].Volumes[j].Name == name {
						return &layers[i].Volumes[j], true
					}
				}
			}
			return nil, false
		}
		var ms []model.Mount
		for i := len(layers) - 1; i >= 0; i-- {
			for _, mt := range layers[i].Mounts {
				if slices.ContainsFunc(ms, func(x model.Mount) bool { return x.MountPath == mt.MountPath }) {
					continue
				}
				m := model.Mount{MountPath: mt.MountPath, SubPath: mt.SubPath, ReadOnly: mt.ReadOnly, Volume: mt.Volume,
					Template: layers[i].Where, Loc: model.LocOf(fd.Config.Path, mt.Span), Class: "missing"}
				if v, ok := volume(mt.Volume); ok {
					m.VolumeType, m.Detail, m.Class = v.Type, v.Detail, volumeClass(v.Type)
					if v.Type == "persistentVolumeClaim" {
						for _, c := range fd.Claims {
							if "claim "+c.Name == v.Detail {
								m.AccessModes = c.AccessModes
							}
						}
					}
				}
				ms = append(ms, m)
			}
		}
		out[comp.name] = ms
	}
	return out
}

// volumeClass tells what a Kubernetes volume source means for files
// written under its mount (https://kubernetes.io/docs/concepts/storage/volumes/).
func volumeClass(typ string) string {
	switch typ {
	case "persistentVolumeClaim", "nfs", "csi", "cephfs", "glusterfs", "azureFile", "quobyte", "portworxVolume", "storageos", "flocker", "scaleIO":
		return "shared"
	case "emptyDir", "hostPath", "ephemeral":
		return "local"
	case "awsElasticBlockStore", "gcePersistentDisk", "azureDisk", "iscsi", "fc", "rbd", "cinder", "vsphereVolume", "photonPersistentDisk", "flexVolume":
		return "node"
	case "configMap", "secret", "projected", "downwardAPI", "gitRepo":
		return "config"
	}
	return "unknown"
}
