package manifest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/manifest"
	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/stretchr/testify/require"
)

// groupsProgram: one all-devices group (data 1024 bytes, signal world_size*4
// or 8 bytes) and, optionally, a group on devices 0 and 2.
func groupsProgram(symbolic, subset bool) *ir.Program {
	prog := pl.NewProgram("M")
	k := prog.InCore("kernel", func(f *pl.Func) {
		f.InOut("data", pld.DistributedTensor(pl.Dims(1, 256), pl.FP32))
		f.InOut("signal", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
	})
	// The subset group's windows are smaller: their own kernel takes them.
	pk := prog.InCore("pair_kernel", func(f *pl.Func) {
		f.InOut("data", pld.DistributedTensor(pl.Dims(1, 25), pl.FP32))
		f.InOut("signal", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
	})
	prog.Host("host", func(f *pl.Func) {
		data := f.Let("data", pld.AllocWindowBuffer(1024))
		var sigSize any = 8
		if symbolic {
			sigSize = pl.Mul(pld.WorldSize(), 4)
		}
		sig := f.Let("signal", pld.AllocWindowBuffer(sigSize))
		f.For("r", pl.Range(pld.WorldSize()), func(r pl.Expr) {
			f.Do(f.Dispatch(k, r, f.Let("d", pld.Window(data, pl.Dims(1, 256), pl.FP32)),
				f.Let("s", pld.Window(sig, pl.Dims(2, 1), pl.INT32))))
		})
		if subset {
			pair := f.Let("pair", pld.AllocWindowBuffer(100))
			pairSig := f.Let("pair_signal", pld.AllocWindowBuffer(8))
			for _, dev := range []int{0, 2} {
				f.Do(f.Dispatch(pk, dev, f.Let("pd", pld.Window(pair, pl.Dims(1, 25), pl.FP32)),
					f.Let("ps", pld.Window(pairSig, pl.Dims(2, 1), pl.INT32))))
			}
		}
	})
	p, err := passes.CollectCommGroups(prog.IR())
	if err != nil {
		panic(err)
	}
	return p
}

// The #1346 case (tests/ut/runtime/test_chip_bootstrap_configs.py): one
// all-devices group, data 1024 bytes and signal 8 bytes.
func TestSeed1346Manifest(t *testing.T) {
	m, err := manifest.FromProgram(groupsProgram(false, false), 0)
	require.NoError(t, err)
	require.Equal(t, `{
  "comm_groups": [
    {
      "devices": [],
      "slots": [
        {
          "load_from_host": false,
          "name": "data",
          "nbytes": 1024,
          "store_to_host": false
        },
        {
          "load_from_host": false,
          "name": "signal",
          "nbytes": 8,
          "store_to_host": false
        }
      ]
    }
  ],
  "version": 2
}
`, string(m.JSON()))
	back, err := manifest.Parse(m.JSON())
	require.NoError(t, err)
	require.Equal(t, m, back)

	dir := t.TempDir()
	require.NoError(t, manifest.Write(dir, m))
	onDisk, err := os.ReadFile(filepath.Join(dir, "orchestration", "comm_manifest.json"))
	require.NoError(t, err)
	require.Equal(t, m.JSON(), onDisk)
}

// Sizes that depend on the world size need the rank count.
func TestSymbolicSizes(t *testing.T) {
	p := groupsProgram(true, false)
	_, err := manifest.FromProgram(p, 0)
	require.ErrorContains(t, err, "slot 'signal'")
	require.ErrorContains(t, err, "give the rank count")
	m, err := manifest.FromProgram(p, 4)
	require.NoError(t, err)
	require.EqualValues(t, 16, m.CommGroups[0].Slots[1].NBytes)
}

// Bootstrap configs: every device in the all-devices group, only devices 0
// and 2 in the subset group (as ranks 0 and 1), 32-byte slot offsets.
func TestBootstrapConfigs(t *testing.T) {
	m, err := manifest.FromProgram(groupsProgram(false, true), 0)
	require.NoError(t, err)
	require.Len(t, m.CommGroups, 2)
	require.Equal(t, []int64{0, 2}, m.CommGroups[1].Devices)
	cfgs, err := manifest.BootstrapConfigs(m, 4, func(g int) string { return filepath.Join("/tmp", "root", string(rune('a'+g))) })
	require.NoError(t, err)
	require.Len(t, cfgs, 4)
	for d, c := range cfgs {
		require.Equal(t, d, c.Device)
		all := c.Comms[0]
		require.Equal(t, 0, all.Group)
		require.Equal(t, d, all.Rank)
		require.Equal(t, 4, all.NRanks)
		require.EqualValues(t, 1024+32, all.WindowSize, "1024 + 8 rounded up to 32")
		require.EqualValues(t, []int64{0, 1024}, []int64{all.Buffers[0].Offset, all.Buffers[1].Offset})
		require.Equal(t, "opaque", all.Buffers[0].DType)
	}
	require.Len(t, cfgs[1].Comms, 1, "device 1 is outside the subset group")
	require.Len(t, cfgs[3].Comms, 1)
	pair0, pair2 := cfgs[0].Comms[1], cfgs[2].Comms[1]
	require.Equal(t, []int{0, 1}, []int{pair0.Rank, pair2.Rank})
	require.Equal(t, 2, pair2.NRanks)
	require.EqualValues(t, 128+32, pair0.WindowSize, "100 rounds up to 128")
	require.Equal(t, pair0.RootInfo, pair2.RootInfo)
	require.NotEqual(t, pair0.RootInfo, cfgs[0].Comms[0].RootInfo)

	// Too few devices for the subset: a clear error.
	_, err = manifest.BootstrapConfigs(m, 2, func(int) string { return "" })
	require.ErrorContains(t, err, "outside the device range")
}

func TestParseRejects(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"version", `{"version": 1, "comm_groups": [{"devices": [], "slots": []}]}`, "version mismatch"},
		{"no group", `{"version": 2, "comm_groups": []}`, "no comm group"},
		{"unknown field", `{"version": 2, "comm_groups": [], "extra": 1}`, "unknown field"},
		{"bad slot", `{"version": 2, "comm_groups": [{"devices": [], "slots": [{"name": "x", "nbytes": 0}]}]}`, "positive nbytes"},
		{"not json", `{`, "comm manifest"},
	} {
		_, err := manifest.Parse([]byte(c.text))
		require.ErrorContains(t, err, c.want, c.name)
	}
	// A program without groups has no manifest.
	m, err := manifest.FromProgram(ir.NewProgram("Empty"), 0)
	require.NoError(t, err)
	require.Nil(t, m)
}
