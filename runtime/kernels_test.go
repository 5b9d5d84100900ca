package runtime

import (
	"encoding/binary"
	"math"
	"math/rand"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/stretchr/testify/require"
)

// The typed kernels must agree bit for bit with the generic float64 path
// they replace: compute in float64, round once to the dtype.

// specials32 are FP32 values that exercise every branch of the kernels:
// signed zeros, infinities, NaNs with different payloads, subnormals,
// extremes and values whose sums round.
func specials32() []float32 {
	bits := []uint32{0x7fc00000, 0xffc00000, 0x7fc12345, 0x7f800001, 0xff812345, 0x00000001, 0x80000001, 0x007fffff}
	out := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.1, -0.1, 3, 1e-38, -1e-38,
		math.MaxFloat32, -math.MaxFloat32, float32(math.Inf(1)), float32(math.Inf(-1)), 1 << 24, 1<<24 + 2, 0.5}
	for _, b := range bits {
		out = append(out, math.Float32frombits(b))
	}
	return out
}

// randomF32 is n values mixing specials with random magnitudes.
func randomF32(rng *rand.Rand, n int) []float32 {
	sp := specials32()
	out := make([]float32, n)
	for i := range out {
		if rng.Intn(4) == 0 {
			out[i] = sp[rng.Intn(len(sp))]
		} else {
			out[i] = float32(rng.NormFloat64() * math.Pow(2, float64(rng.Intn(40)-20)))
		}
	}
	return out
}

// sameBits32 requires want and got to be the same bits, except that when
// both operands a[i] and b[i] are NaN any NaN will do: which payload wins
// is not fixed even for plain Go code (the compiler may commute a float
// add, and does under -race), so no caller can depend on it.
func sameBits32(t *testing.T, want, got, a, b []float32, msg string) {
	t.Helper()
	require.Equal(t, len(want), len(got), msg)
	for i := range want {
		if a[i] != a[i] && b[i] != b[i] && got[i] != got[i] {
			continue
		}
		if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
			t.Fatalf("%s: element %d: want %#08x (%g), got %#08x (%g)", msg, i,
				math.Float32bits(want[i]), want[i], math.Float32bits(got[i]), got[i])
		}
	}
}

func TestMaxMin32MatchMath(t *testing.T) {
	sp := specials32()
	for _, a := range sp {
		for _, b := range sp {
			want := float32(math.Max(float64(a), float64(b)))
			require.Equal(t, math.Float32bits(want), math.Float32bits(max32(a, b)), "max(%g, %g)", a, b)
			want = float32(math.Min(float64(a), float64(b)))
			require.Equal(t, math.Float32bits(want), math.Float32bits(min32(a, b)), "min(%g, %g)", a, b)
		}
	}
}

// TestAddKernels checks the vector add kernels against the scalar Go
// loops at every length around the vector width, NaN payloads included.
func TestAddKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 3, 15, 16, 17, 31, 32, 33, 64, 1000, 4099} {
		a, b := randomF32(rng, n), randomF32(rng, n+5) // src may be longer
		want := append([]float32(nil), a...)
		addF32Go(want, b)
		got := append([]float32(nil), a...)
		addF32(got, b)
		sameBits32(t, want, got, a, b, "addF32")

	}
}

// TestFoldKernel checks foldF32 (all sources in one pass) against folding
// source by source with the scalar Go loop. Where two or more operands are
// NaN the payload may differ (see sameBits32), so NaNs go in one source.
func TestFoldKernel(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, k := range []int{0, 1, 2, 7} {
		for _, n := range []int{0, 1, 31, 32, 33, 100, 4099} {
			first := randomF32(rng, n)
			srcs := make([][]float32, k)
			for i := range srcs {
				srcs[i] = make([]float32, n+3)
				for j := range srcs[i] {
					srcs[i][j] = float32(rng.NormFloat64())
				}
			}
			want := make([]float32, n)
			copy(want, first)
			for _, s := range srcs {
				addF32Go(want, s)
			}
			noNaN := make([]float32, n) // payloads must match exactly here
			got := make([]float32, n)
			foldF32(got, first, srcs)
			sameBits32(t, want, got, first, noNaN, "foldF32")
			got = make([]float32, n)
			foldF32Go(got, first, srcs)
			sameBits32(t, want, got, first, noNaN, "foldF32Go")
		}
	}
}

// genericReduce is the float64-accumulator reduction the collectives used
// before the typed path: decode, apply, round, encode at the end.
func genericReduce(dt ir.DataType, op ir.ReduceOp, acc, src []byte) {
	n := len(acc) / dt.Bytes()
	a, b := make([]float64, n), make([]float64, n)
	decode(dt, acc, a)
	decode(dt, src, b)
	for i := range a {
		a[i] = round(reduceOps[op](a[i], b[i]), dt)
	}
	encode(dt, a, acc)
}

func randomBytes(rng *rand.Rand, dt ir.DataType, n int) []byte {
	b := alignedBytes(n * dt.Bytes())
	if dt == ir.FP32 {
		putF32(b, randomF32(rng, n))
		return b
	}
	rng.Read(b)
	return b
}

func TestReduceBytesMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, dt := range []ir.DataType{ir.FP32, ir.FP16, ir.BF16, ir.INT32, ir.INT8, ir.UINT16, ir.INT64} {
		for op := range reduceOps {
			for _, n := range []int{1, 7, 300, 1025} {
				acc, src := randomBytes(rng, dt, n), randomBytes(rng, dt, n)
				// Both start from values the dtype's rounding produced, as
				// every accumulator does (a window decoded, then rounded).
				vals := make([]float64, n)
				decode(dt, acc, vals)
				for i := range vals {
					vals[i] = round(vals[i], dt)
				}
				encode(dt, vals, acc)
				want := append([]byte(nil), acc...)
				genericReduce(dt, op, want, src)
				got := alignedBytes(len(acc))
				copy(got, acc)
				reduceBytes(dt, op, got, src)
				folded := alignedBytes(len(acc))
				foldBytes(dt, op, folded, acc, [][]byte{src})
				if dt != ir.FP32 {
					require.Equal(t, want, got, "%s %s n=%d", dt.Name(), op, n)
					require.Equal(t, want, folded, "fold %s %s n=%d", dt.Name(), op, n)
					continue
				}
				f := func(b []byte) []float32 { v := make([]float32, n); getF32(v, b); return v }
				sameBits32(t, f(want), f(got), f(acc), f(src), "reduce "+op.String())
				sameBits32(t, f(want), f(folded), f(acc), f(src), "fold "+op.String())
			}
		}
	}
}

// TestHalfRoundTrip: the generic reduction keeps its accumulator in the
// dtype's bytes between peers, which equals keeping float64 only if every
// value round produces survives encode and decode. Checked for every
// FP16 and BF16 bit pattern and the NaNs float64 arithmetic produces.
func TestHalfRoundTrip(t *testing.T) {
	for _, dt := range []ir.DataType{ir.FP16, ir.BF16} {
		vals := []float64{math.NaN(), -math.NaN(), math.Inf(1) - math.Inf(1)}
		b := make([]byte, 2)
		for u := 0; u < 1<<16; u++ {
			binary.LittleEndian.PutUint16(b, uint16(u))
			v := make([]float64, 1)
			decode(dt, b, v)
			vals = append(vals, v[0])
		}
		for _, v := range vals {
			r := round(v, dt)
			encode(dt, []float64{r}, b)
			back := make([]float64, 1)
			decode(dt, b, back)
			require.Equal(t, math.Float64bits(r), math.Float64bits(back[0]), "%s %x", dt.Name(), math.Float64bits(v))
		}
	}
}

func TestBinaryF32MatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	a, b := randomF32(rng, 2000), randomF32(rng, 2000)
	for name, op := range elementwiseF32Names {
		fn := elementwise[name]
		want := make([]float32, len(a))
		for i := range a {
			want[i] = float32(round(fn(float64(a[i]), float64(b[i])), ir.FP32))
		}
		got := make([]float32, len(a))
		require.True(t, binaryF32(op, got, a, b))
		sameBits32(t, want, got, a, b, name)

		s := b[7]
		for i := range a {
			want[i] = float32(round(fn(float64(a[i]), float64(s)), ir.FP32))
		}
		ss := make([]float32, len(a))
		for i := range ss {
			ss[i] = s
		}
		require.True(t, scalarF32(op, got, a, s))
		sameBits32(t, want, got, a, ss, name+" scalar")
		require.True(t, binaryF32(op, got, a, []float32{s}))
		sameBits32(t, want, got, a, ss, name+" broadcast")
	}
}

func TestChunkAndCopySegs(t *testing.T) {
	segs := []Segment{{0, 12}, {40, 4}, {100, 30}, {200, 2}}
	for _, size := range []int{2, 4, 6, 16, 1000} {
		chunks := chunkSegs(segs, size)
		var flat []Segment
		for i, ch := range chunks {
			if i < len(chunks)-1 {
				require.Equal(t, size, segsLen(ch))
			}
			flat = append(flat, ch...)
		}
		// The chunks cover exactly the segments' bytes, in order.
		var want, got []int
		for _, s := range segs {
			for b := s.Off; b < s.Off+s.Len; b++ {
				want = append(want, b)
			}
		}
		for _, s := range flat {
			for b := s.Off; b < s.Off+s.Len; b++ {
				got = append(got, b)
			}
		}
		require.Equal(t, want, got, "size %d", size)
	}

	src := make([]byte, 256)
	for i := range src {
		src[i] = byte(i)
	}
	dst := make([]byte, 256)
	copySegs(dst, []Segment{{10, 30}, {100, 18}}, src, segs[:3])
	want := make([]byte, 256)
	gathered := append(append(append([]byte(nil), src[0:12]...), src[40:44]...), src[100:130]...)
	copy(want[10:40], gathered[:30])
	copy(want[100:118], gathered[30:])
	require.Equal(t, want, dst)
}

func TestBufPool(t *testing.T) {
	b := getZeroBuf(3 << 20)
	require.Len(t, b, 3<<20)
	require.Equal(t, 4<<20, cap(b))
	b[0], b[len(b)-1] = 1, 1
	putBuf(b)
	z := getZeroBuf(3 << 20)
	require.Zero(t, z[0])
	require.Zero(t, z[len(z)-1])
	_, ok := asF32(getBuf(1 << 20))
	require.True(t, ok || !nativeLE, "pooled buffers are aligned for float32")
}
