/*
 * allreduce_mpi.c: the OpenMPI peer of ptorepl's simulator benchmark.
 *
 * Times MPI_Allreduce(MPI_SUM, MPI_FLOAT) of N elements per rank (default
 * 1 Mi) over ITERS back-to-back calls after WARMUP untimed calls, and checks
 * the sums once. Rank 0 prints machine-readable key=value lines:
 *
 *   mpi_ranks=8
 *   mpi_elems_per_rank=1048576
 *   mpi_allreduce_seconds_per_iter=...      mean over ranks of (t1-t0)/ITERS
 *   mpi_allreduce_seconds_per_iter_min=...  fastest rank
 *   mpi_allreduce_seconds_per_iter_max=...  slowest rank
 *   mpi_check=ok
 *
 * Usage: mpirun -np 8 ./allreduce_mpi [elems] [iters] [warmup]
 */
#include <mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	long n = argc > 1 ? atol(argv[1]) : 1L << 20;
	int iters = argc > 2 ? atoi(argv[2]) : 20;
	int warmup = argc > 3 ? atoi(argv[3]) : 3;
	if (n <= 0 || iters <= 0 || warmup < 0) {
		if (rank == 0)
			fprintf(stderr, "usage: allreduce_mpi [elems>0] [iters>0] [warmup>=0]\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}

	float *in = malloc(n * sizeof(float));
	float *out = malloc(n * sizeof(float));
	if (!in || !out) {
		fprintf(stderr, "rank %d: out of memory\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	/* Small integers: every partial sum is exact in FP32, so the check is exact. */
	for (long i = 0; i < n; i++)
		in[i] = (float)((rank + 1) * (int)(i % 7 + 1));

	for (int i = 0; i < warmup; i++)
		MPI_Allreduce(in, out, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);

	/* Correctness, once. */
	MPI_Allreduce(in, out, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
	long bad = 0;
	float ranksum = (float)(size * (size + 1) / 2);
	for (long i = 0; i < n; i++)
		if (out[i] != ranksum * (float)(i % 7 + 1))
			bad++;
	long allbad = 0;
	MPI_Reduce(&bad, &allbad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);

	MPI_Barrier(MPI_COMM_WORLD);
	double t0 = MPI_Wtime();
	for (int i = 0; i < iters; i++)
		MPI_Allreduce(in, out, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
	double per = (MPI_Wtime() - t0) / iters;

	double sum = 0, lo = 0, hi = 0;
	MPI_Reduce(&per, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(&per, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
	MPI_Reduce(&per, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		printf("mpi_ranks=%d\n", size);
		printf("mpi_elems_per_rank=%ld\n", n);
		printf("mpi_iters=%d\n", iters);
		printf("mpi_allreduce_seconds_per_iter=%.9f\n", sum / size);
		printf("mpi_allreduce_seconds_per_iter_min=%.9f\n", lo);
		printf("mpi_allreduce_seconds_per_iter_max=%.9f\n", hi);
		printf("mpi_check=%s\n", allbad == 0 ? "ok" : "FAILED");
	}
	free(in);
	free(out);
	MPI_Finalize();
	return allbad == 0 ? 0 : 1;
}
