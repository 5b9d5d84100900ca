// Command simbench times the simulator side of the MPI/memcpy comparison
// and prints key=value lines for bench.sh:
//
//	sim_allreduce_seconds_{median,mean,min,max}
//	                                   the 8-rank mesh allreduce alone, over the timed runs
//	sim_allreduce_run_seconds_median   the whole program run
//	sim_allreduce_peer_bytes           bytes delivered between ranks per allreduce
//	sim_allreduce_bytes_per_second     peer bytes / median allreduce time
//	go_mesh_allreduce_seconds_{median,...}
//	                                   the same algorithm in plain Go (bench.MeshAllReduceGo)
//	sim_get_seconds_{median,...}, sim_get_peer_bytes, sim_get_bytes_per_second
//	                                   the same for one pld.tensor.get per rank
//
// Usage: simbench [-ranks 8] [-elems 1048576] [-iters 10] [-warmup 2] [-get=true]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/ptorepl/ptorepl/bench"
)

func main() {
	ranks := flag.Int("ranks", bench.Ranks, "world size")
	elems := flag.Int("elems", bench.Elems, "FP32 elements per rank")
	iters := flag.Int("iters", 10, "timed runs")
	warmup := flag.Int("warmup", 2, "untimed runs first")
	get := flag.Bool("get", true, "also time the raw RMA get data path")
	flag.Parse()
	if err := run(*ranks, *elems, *iters, *warmup, *get); err != nil {
		fmt.Fprintln(os.Stderr, "simbench:", err)
		os.Exit(1)
	}
}

func run(ranks, elems, iters, warmup int, get bool) error {
	ctx := context.Background()
	c, err := bench.NewAllReduce(ranks, elems, 1)
	if err != nil {
		return err
	}
	st, err := c.Measure(ctx, warmup, iters)
	if err != nil {
		return fmt.Errorf("allreduce: %w", err)
	}
	fmt.Printf("sim_ranks=%d\n", ranks)
	fmt.Printf("sim_elems_per_rank=%d\n", elems)
	fmt.Printf("sim_iters=%d\n", iters)
	printSummary("sim_allreduce", st.Op)
	fmt.Printf("sim_allreduce_run_seconds_median=%.9f\n", st.Run.Median.Seconds())
	fmt.Printf("sim_allreduce_peer_bytes=%d\n", st.PeerBytesPerRun)
	fmt.Printf("sim_allreduce_bytes_per_second=%.0f\n", st.Op.BytesPerSecond(st.PeerBytesPerRun))
	fmt.Println("sim_check=ok")
	goMesh, err := bench.MeasureMeshGo(ranks, elems, warmup, iters)
	if err != nil {
		return err
	}
	printSummary("go_mesh_allreduce", goMesh)
	if !get {
		return nil
	}
	g, err := bench.NewGet(ranks, elems, 2)
	if err != nil {
		return err
	}
	gs, err := g.Measure(ctx, warmup, iters)
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	printSummary("sim_get", gs.Op)
	fmt.Printf("sim_get_peer_bytes=%d\n", gs.PeerBytesPerRun)
	fmt.Printf("sim_get_bytes_per_second=%.0f\n", gs.Op.BytesPerSecond(gs.PeerBytesPerRun))
	return nil
}

func printSummary(prefix string, s bench.Summary) {
	fmt.Printf("%s_seconds_median=%.9f\n", prefix, s.Median.Seconds())
	fmt.Printf("%s_seconds_mean=%.9f\n", prefix, s.Mean.Seconds())
	fmt.Printf("%s_seconds_min=%.9f\n", prefix, s.Min.Seconds())
	fmt.Printf("%s_seconds_max=%.9f\n", prefix, s.Max.Seconds())
}
