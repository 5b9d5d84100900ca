// Package manifest is the AOT comm manifest (seeds #1297, #1346): the comm
// groups a compiled program needs, written as
// orchestration/comm_manifest.json, and the runtime side that turns a
// manifest into per-device bootstrap configurations.
//
// The format is version 2 of upstream's manifest: {"version": 2,
// "comm_groups": [{"devices": [...], "slots": [{"name", "nbytes",
// "load_from_host", "store_to_host"}]}]}, an empty device list meaning every
// device. Beyond the seed, a program may declare several groups, slots are
// laid out at 32-byte aligned offsets, and sizes that depend on the world
// size are resolved when the rank count is given.
package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptorepl/ptorepl/ir"
)

// Version is the manifest format version.
const Version = 2

// Path is where a compile output directory holds the manifest.
const Path = "orchestration/comm_manifest.json"

// SlotAlignment is the byte alignment of every slot in a window.
const SlotAlignment = 32

// Slot is one window buffer of a group. Fields are declared in key order so
// the JSON has sorted keys, as upstream writes it.
type Slot struct {
	LoadFromHost bool   `json:"load_from_host"`
	Name         string `json:"name"`
	NBytes       int64  `json:"nbytes"`
	StoreToHost  bool   `json:"store_to_host"`
}

// Group is one comm group: its devices (empty: all) and its slots.
type Group struct {
	Devices []int64 `json:"devices"`
	Slots   []Slot  `json:"slots"`
}

// Manifest is the whole file.
type Manifest struct {
	CommGroups []Group `json:"comm_groups"`
	Version    int     `json:"version"`
}

// FromProgram builds the manifest of a program whose comm groups
// CollectCommGroups inferred. ranks is the world size used to resolve sizes
// such as world_size * 4; 0 means unknown, and such a size is then an error.
// A program without comm groups has no manifest (nil, nil).
func FromProgram(p *ir.Program, ranks int) (*Manifest, error) {
	if len(p.CommGroups) == 0 {
		return nil, nil
	}
	m := &Manifest{Version: Version}
	for _, g := range p.CommGroups {
		out := Group{Devices: append([]int64{}, g.Devices...), Slots: []Slot{}}
		for _, wb := range g.Slots {
			n, err := evalSize(wb.Size, ranks)
			if err != nil {
				return nil, fmt.Errorf("slot '%s': %w", wb.Name, err)
			}
			if n <= 0 {
				return nil, fmt.Errorf("slot '%s': size %d bytes; a window buffer needs a positive size", wb.Name, n)
			}
			out.Slots = append(out.Slots, Slot{Name: wb.Name, NBytes: n, LoadFromHost: wb.LoadFromHost, StoreToHost: wb.StoreToHost})
		}
		m.CommGroups = append(m.CommGroups, out)
	}
	return m, nil
}

// evalSize folds a window size expression. world_size is ranks when known.
func evalSize(e ir.Expr, ranks int) (int64, error) {
	return ir.FoldInt(e, func(x ir.Expr) (int64, error) {
		if c, ok := x.(*ir.Call); ok && c.Op == ir.PldSystemWorldSize {
			if ranks <= 0 {
				return 0, fmt.Errorf("the size depends on pld.system.world_size(); give the rank count to resolve it")
			}
			return int64(ranks), nil
		}
		return 0, fmt.Errorf("dynamic WindowBuffer size is not supported yet (%s); declare size as a literal int (bytes)", ir.DefaultFormat.Expr(e))
	})
}

// JSON is the manifest as upstream writes it: 2-space indentation, sorted
// keys, one trailing newline.
func (m *Manifest) JSON() []byte {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // plain structs of strings, ints and bools always marshal
	}
	return append(b, '\n')
}

// Parse reads a manifest and checks its version and shape.
func Parse(data []byte) (*Manifest, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("comm manifest: %w", err)
	}
	if m.Version != Version {
		return nil, fmt.Errorf("comm manifest version mismatch: file has %d, ptorepl reads %d", m.Version, Version)
	}
	if len(m.CommGroups) == 0 {
		return nil, fmt.Errorf("comm manifest declares no comm group")
	}
	for i, g := range m.CommGroups {
		seen := map[string]bool{}
		for _, s := range g.Slots {
			if s.Name == "" || s.NBytes <= 0 {
				return nil, fmt.Errorf("comm group %d: slot %q needs a name and a positive nbytes", i, s.Name)
			}
			if seen[s.Name] {
				return nil, fmt.Errorf("comm group %d: slot %q declared twice", i, s.Name)
			}
			seen[s.Name] = true
		}
	}
	return &m, nil
}

// Write stores the manifest under dir at Path.
func Write(dir string, m *Manifest) error {
	path := filepath.Join(dir, Path)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, m.JSON(), 0o644)
}
