package runtime

// The FP32 add kernels in assembly. Go emits scalar ADDSS for the loops in
// kernels.go, which leaves the allreduce compute-bound at about half the
// memory bandwidth; these add 4 (SSE2, on every amd64 CPU) or 8 (AVX)
// lanes per instruction. ADDPS/VADDPS round every lane exactly like ADDSS,
// so results are bit-identical to the Go loops.

//go:noescape
func addF32SSE(acc, src []float32)

//go:noescape
func addF32AVX(acc, src []float32)

//go:noescape
func foldF32AVX(dst, first []float32, srcs [][]float32)

// hasAVX reports whether the CPU has AVX and the OS saves its registers.
func hasAVX() bool

var useAVX = hasAVX()

// addF32 is acc[i] += src[i] for i < len(acc) (src at least as long).
func addF32(acc, src []float32) {
	src = src[:len(acc)] // the bounds check the assembly does not do
	if useAVX {
		addF32AVX(acc, src)
	} else {
		addF32SSE(acc, src)
	}
}

// foldF32 is dst[i] = ((first[i] + srcs[0][i]) + srcs[1][i]) + ... for
// i < len(dst). With AVX it keeps each block of dst in registers while it
// adds every source, so dst is written once instead of once per source.
func foldF32(dst, first []float32, srcs [][]float32) {
	first = first[:len(dst)] // the bounds checks the assembly does not do
	for i := range srcs {
		srcs[i] = srcs[i][:len(dst)]
	}
	if !useAVX {
		copy(dst, first)
		for _, s := range srcs {
			addF32SSE(dst, s)
		}
		return
	}
	foldF32AVX(dst, first, srcs)
}
