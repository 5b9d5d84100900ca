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
//	lowered_{ring,mesh}_seconds_{median,...}
//	                                   the allreduce a user runs: pl.Compile(prog,
//	                                   pl.Ranks(n)) then c.Run, in ring and mesh mode
//	lowered_{ring,mesh}_coll_seconds_{median,...}
//	                                   the lowered allreduce's own span in those runs
//	                                   (its first op on any rank to its last)
//	scale_{ring,mesh}_P<n>_seconds_median, scalecoll_{ring,mesh}_P<n>_seconds_median
//	                                   the lowered allreduce of -scale-elems FP32 per
//	                                   rank at each world size of -scaling: whole run
//	                                   and the allreduce's span
//
// Usage: simbench [-ranks 8] [-elems 1048576] [-iters 10] [-warmup 2] [-get=true]
// [-lowered=true] [-scaling 2,4,8,16,32,64] [-scale-elems 65536] [-scale-iters 3]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/ptorepl/ptorepl/bench"
)

func main() {
	ranks := flag.Int("ranks", bench.Ranks, "world size")
	elems := flag.Int("elems", bench.Elems, "FP32 elements per rank")
	iters := flag.Int("iters", 10, "timed runs")
	warmup := flag.Int("warmup", 2, "untimed runs first")
	get := flag.Bool("get", true, "also time the raw RMA get data path")
	lowered := flag.Bool("lowered", true, "also time the lowered allreduce (ring and mesh)")
	scaling := flag.String("scaling", "", "world sizes of the lowered scaling table, comma-separated (empty: none)")
	scaleElems := flag.Int("scale-elems", bench.ScalingElems, "FP32 elements per rank in the scaling table")
	scaleIters := flag.Int("scale-iters", 3, "timed runs per scaling entry up to 16 ranks (one beyond)")
	flag.Parse()
	if err := run(*ranks, *elems, *iters, *warmup, *get); err != nil {
		fmt.Fprintln(os.Stderr, "simbench:", err)
		os.Exit(1)
	}
	if *lowered {
		if err := runLowered(*ranks, *elems, *iters, *warmup); err != nil {
			fmt.Fprintln(os.Stderr, "simbench:", err)
			os.Exit(1)
		}
	}
	if *scaling != "" {
		if err := runScaling(*scaling, *scaleElems, *scaleIters); err != nil {
			fmt.Fprintln(os.Stderr, "simbench:", err)
			os.Exit(1)
		}
	}
}

func runLowered(ranks, elems, iters, warmup int) error {
	for _, mode := range []string{"ring", "mesh"} {
		l, err := bench.NewLowered(mode, ranks, elems, 1)
		if err != nil {
			return err
		}
		s, coll, err := l.Measure(warmup, iters)
		if err != nil {
			return fmt.Errorf("lowered %s: %w", mode, err)
		}
		printSummary("lowered_"+mode, s)
		printSummary("lowered_"+mode+"_coll", coll)
	}
	return nil
}

func runScaling(list string, elems, iters int) error {
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("-scaling: %q is not a rank count", f)
		}
		it, warm := iters, 1
		if n > 16 {
			it, warm = 1, 0 // a 64-rank ring takes tens of seconds a run
		}
		for _, mode := range []string{"ring", "mesh"} {
			l, err := bench.NewLowered(mode, n, elems, 1)
			if err != nil {
				return err
			}
			s, coll, err := l.Measure(warm, it)
			if err != nil {
				return fmt.Errorf("scaling %s P=%d: %w", mode, n, err)
			}
			fmt.Printf("scale_%s_P%d_seconds_median=%.9f\n", mode, n, s.Median.Seconds())
			fmt.Printf("scalecoll_%s_P%d_seconds_median=%.9f\n", mode, n, coll.Median.Seconds())
		}
	}
	return nil
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
