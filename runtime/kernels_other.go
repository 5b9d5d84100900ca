//go:build !amd64

package runtime

// addF32 is acc[i] += src[i] for i < len(acc).
func addF32(acc, src []float32) { addF32Go(acc, src) }

// foldF32 is dst[i] = ((first[i] + srcs[0][i]) + srcs[1][i]) + ... for
// i < len(dst).
func foldF32(dst, first []float32, srcs [][]float32) { foldF32Go(dst, first, srcs) }
