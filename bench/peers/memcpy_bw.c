/*
 * memcpy_bw.c: memcpy bandwidth, the peer of the simulator's data path.
 *
 * Each of THREADS threads copies its own SIZE-byte buffer into its own
 * destination with memcpy, REPS times per trial after one untouched warm-up
 * copy; the best of TRIALS trials is reported as bytes copied per second
 * (each byte counted once, as it arrives at the destination), summed over
 * threads. Output, machine-readable:
 *
 *   memcpy_size_bytes=4194304
 *   memcpy_threads=2
 *   memcpy_bytes_per_second=...
 *
 * Usage: ./memcpy_bw [size_bytes] [threads] [min_seconds_per_trial]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static size_t size = 4u << 20;
static double min_seconds = 0.2;
static pthread_barrier_t start_barrier;

struct worker {
	char *src, *dst;
	long reps;
	double seconds;
};

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *run(void *arg) {
	struct worker *w = arg;
	pthread_barrier_wait(&start_barrier);
	double t0 = now();
	for (long i = 0; i < w->reps; i++) {
		memcpy(w->dst, w->src, size);
		/* Keep the compiler from proving the copies redundant. */
		__asm__ volatile("" : : "r"(w->dst) : "memory");
	}
	w->seconds = now() - t0;
	return NULL;
}

int main(int argc, char **argv) {
	if (argc > 1)
		size = strtoull(argv[1], NULL, 10);
	int threads = argc > 2 ? atoi(argv[2]) : 1;
	if (argc > 3)
		min_seconds = atof(argv[3]);
	if (size == 0 || threads <= 0) {
		fprintf(stderr, "usage: memcpy_bw [size_bytes>0] [threads>0] [min_seconds]\n");
		return 2;
	}
	struct worker *ws = calloc(threads, sizeof *ws);
	pthread_t *ts = calloc(threads, sizeof *ts);
	for (int t = 0; t < threads; t++) {
		ws[t].src = malloc(size);
		ws[t].dst = malloc(size);
		if (!ws[t].src || !ws[t].dst) {
			fprintf(stderr, "out of memory\n");
			return 1;
		}
		memset(ws[t].src, t + 1, size); /* fault the pages in */
		memset(ws[t].dst, 0, size);
		memcpy(ws[t].dst, ws[t].src, size);
	}

	/* Calibrate repetitions so one trial lasts about min_seconds. */
	long reps = 1;
	for (;;) {
		double t0 = now();
		for (long i = 0; i < reps; i++) {
			memcpy(ws[0].dst, ws[0].src, size);
			__asm__ volatile("" : : "r"(ws[0].dst) : "memory");
		}
		double dt = now() - t0;
		if (dt >= min_seconds / 4 || reps > (1L << 40))
			break;
		reps *= 2;
	}
	reps *= 4;

	double best = 0;
	for (int trial = 0; trial < 5; trial++) {
		pthread_barrier_init(&start_barrier, NULL, threads);
		for (int t = 0; t < threads; t++) {
			ws[t].reps = reps;
			pthread_create(&ts[t], NULL, run, &ws[t]);
		}
		double slowest = 0;
		for (int t = 0; t < threads; t++) {
			pthread_join(ts[t], NULL);
			if (ws[t].seconds > slowest)
				slowest = ws[t].seconds;
		}
		pthread_barrier_destroy(&start_barrier);
		double bw = (double)size * reps * threads / slowest;
		if (bw > best)
			best = bw;
	}
	/* Check the last copy really happened. */
	for (int t = 0; t < threads; t++)
		if (memcmp(ws[t].src, ws[t].dst, size) != 0) {
			fprintf(stderr, "memcpy check failed\n");
			return 1;
		}
	printf("memcpy_size_bytes=%zu\n", size);
	printf("memcpy_threads=%d\n", threads);
	printf("memcpy_bytes_per_second=%.0f\n", best);
	return 0;
}
