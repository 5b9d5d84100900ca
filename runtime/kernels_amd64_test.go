package runtime

import (
	"math/rand"
	"testing"
)

// Both instruction sets against the Go loops, whichever the CPU picks;
// foldF32 without AVX takes the SSE2 path.
func TestAddKernelsSSEAndAVX(t *testing.T) {
	type impl struct {
		name string
		add  func(acc, src []float32)
	}
	impls := []impl{{"sse", addF32SSE}}
	if hasAVX() {
		impls = append(impls, impl{"avx", addF32AVX})
	}
	rng := rand.New(rand.NewSource(4))
	for _, k := range impls {
		for _, n := range []int{0, 1, 7, 16, 31, 32, 33, 63, 64, 65, 1000, 4099} {
			a, b := randomF32(rng, n), randomF32(rng, n)
			want := append([]float32(nil), a...)
			addF32Go(want, b)
			got := append([]float32(nil), a...)
			k.add(got, b)
			sameBits32(t, want, got, a, b, k.name+" add")
		}
	}
}

func TestFoldKernelWithoutAVX(t *testing.T) {
	if !useAVX {
		t.Skip("foldF32 already runs without AVX here")
	}
	useAVX = false
	defer func() { useAVX = true }()
	TestFoldKernel(t)
}
