package manifest

import (
	"fmt"
	"sort"
)

// BufferSpec is one slot as a device allocates it in its window.
type BufferSpec struct {
	Name         string
	DType        string // always "opaque": the window holds bytes
	Count        int64
	NBytes       int64
	Offset       int64 // byte offset in the window, 32-byte aligned
	LoadFromHost bool
	StoreToHost  bool
}

// CommConfig is a device's membership of one comm group.
type CommConfig struct {
	Group      int // index in the manifest
	Rank       int // the device's position in the group
	NRanks     int
	RootInfo   string // the rendezvous file rank 0 writes and the others read
	WindowSize int64
	Buffers    []BufferSpec
}

// BootstrapConfig is what one device needs before it runs the program: one
// CommConfig per group it belongs to (none for a device outside every group).
type BootstrapConfig struct {
	Device int
	Comms  []CommConfig
}

// Layout places a group's slots at 32-byte aligned offsets and returns them
// with the window size.
func Layout(g Group) ([]BufferSpec, int64) {
	var specs []BufferSpec
	var off int64
	for _, s := range g.Slots {
		specs = append(specs, BufferSpec{Name: s.Name, DType: "opaque", Count: s.NBytes, NBytes: s.NBytes,
			Offset: off, LoadFromHost: s.LoadFromHost, StoreToHost: s.StoreToHost})
		off += (s.NBytes + SlotAlignment - 1) / SlotAlignment * SlotAlignment
	}
	return specs, off
}

// BootstrapConfigs builds the per-device configurations for nDevices
// devices. A group's devices are rank indices in [0, nDevices); an empty list
// covers them all. rootInfo(g) names group g's rendezvous file.
func BootstrapConfigs(m *Manifest, nDevices int, rootInfo func(group int) string) ([]BootstrapConfig, error) {
	if m == nil || m.Version != Version {
		return nil, fmt.Errorf("comm manifest version mismatch")
	}
	if nDevices <= 0 {
		return nil, fmt.Errorf("need at least one device, got %d", nDevices)
	}
	out := make([]BootstrapConfig, nDevices)
	for d := range out {
		out[d].Device = d
	}
	for gi, g := range m.CommGroups {
		var covered []int
		if len(g.Devices) == 0 {
			for d := 0; d < nDevices; d++ {
				covered = append(covered, d)
			}
		} else {
			for _, d := range g.Devices {
				if d < 0 || d >= int64(nDevices) {
					return nil, fmt.Errorf("comm group %d contains entries outside the device range [0, %d): %v", gi, nDevices, g.Devices)
				}
				covered = append(covered, int(d))
			}
			sort.Ints(covered)
		}
		specs, size := Layout(g)
		for rank, d := range covered {
			out[d].Comms = append(out[d].Comms, CommConfig{Group: gi, Rank: rank, NRanks: len(covered),
				RootInfo: rootInfo(gi), WindowSize: size, Buffers: specs})
		}
	}
	return out, nil
}
