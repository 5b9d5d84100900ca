//go:build mpi && cgo

package pyfront_test

import (
	"os"
	"testing"

	"github.com/ptorepl/ptorepl/mpidev"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
)

// Under the mpi tag the test binary doubles as the MPI device's worker,
// and the oracle runner (PTOREPL_ORACLE_DEVICE=mpi) runs each program with
// its ranks as MPI processes.
func init() {
	mpidev.MaybeWorker()
	if os.Getenv("PTOREPL_ORACLE_DEVICE") != "mpi" {
		return
	}
	oracleOn = func(o pl.RunOption) pl.RunOption { return o.On(pl.MPI()) }
	oracleDone = func() {
		if d, err := runtime.OpenDevice("mpi", runtime.DeviceConfig{}); err == nil {
			if c, ok := d.(interface{ Close() }); ok {
				c.Close()
			}
		}
	}
}

// TestUpstreamDistributedOracleMPI is TestUpstreamDistributedOracle with
// every program run on the MPI device: upstream's own asserts judge it.
func TestUpstreamDistributedOracleMPI(t *testing.T) { distributedOracle(t, "mpi") }
