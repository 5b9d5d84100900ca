//go:build mpi

package mpidev_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/ptorepl/ptorepl/mpidev"
	"github.com/ptorepl/ptorepl/runtime"
	"github.com/ptorepl/ptorepl/tensor"
	"github.com/ptorepl/ptorepl/testprogs"
)

var (
	devOnce sync.Once
	dev     *mpidev.Device
)

func device(t testing.TB) *mpidev.Device {
	devOnce.Do(func() {
		d, err := mpidev.New(runtime.DeviceConfig{})
		if err != nil {
			t.Fatal(err)
		}
		dev = d
	})
	return dev
}

func closeDevice() {
	if dev != nil {
		dev.Close()
	}
}

func TestSmoke(t *testing.T) {
	prog := testprogs.Quickstart()
	for _, n := range []int{2} {
		want, _, _ := runtime.HostArgs(prog.IR(), n, 3)
		got, _, _ := runtime.HostArgs(prog.IR(), n, 3)
		if _, err := runtime.Default().Run(context.Background(), prog.IR(), want, runtime.RunOptions{Ranks: n}); err != nil {
			t.Fatal(err)
		}
		if _, err := device(t).Run(context.Background(), prog.IR(), got, runtime.RunOptions{Ranks: n}); err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if string(want[i].Bytes()) != string(got[i].Bytes()) {
				t.Errorf("P=%d: tensor %d differs", n, i)
			}
		}
	}
	_ = fmt.Sprint
	_ = tensor.Zeros
}
