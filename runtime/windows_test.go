package runtime

import (
	"sync"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/stretchr/testify/require"
)

// The window API's bulk methods (Reduce, Copy, WriteOwned) must report to
// observers exactly what the Read/Write sequence they replace reported.

type accessLog struct {
	mu  sync.Mutex
	got []Access
}

func (l *accessLog) Access(a Access)   { l.mu.Lock(); l.got = append(l.got, a); l.mu.Unlock() }
func (*accessLog) Notify(Notification) {}
func (*accessLog) Wait(WaitResult)     {}
func (*accessLog) End(RunEnd)          {}

func testWindows(t *testing.T, ranks int) (*simWindows, *accessLog) {
	log := &accessLog{}
	w := newSimWindows(ranks, &sched{}, log)
	t.Cleanup(w.release)
	return w, log
}

// fill writes rank-dependent FP32 values into every rank's copy of buf.
func fill(t *testing.T, w *simWindows, buf *WindowBuf, ranks int) [][]float32 {
	vals := make([][]float32, ranks)
	for r := range vals {
		vals[r] = make([]float32, buf.Size/4)
		for i := range vals[r] {
			vals[r][i] = float32(r+1) * (float32(i%13) + 0.25)
		}
		b := make([]byte, buf.Size)
		putF32(b, vals[r])
		require.NoError(t, w.Write(r, r, buf, []Segment{{0, buf.Size}}, b, Origin{}))
	}
	return vals
}

func TestReduceFoldsInOrderAndReportsEachRead(t *testing.T) {
	const ranks = 4
	w, log := testWindows(t, ranks)
	buf, err := w.Alloc("data", 3*reduceChunk+40, nil) // several chunks and a tail
	require.NoError(t, err)
	vals := fill(t, w, buf, ranks)
	log.got = nil

	// A strided view: every other 4 KiB run of the buffer.
	var segs []Segment
	for off := 0; off+4096 <= buf.Size; off += 8192 {
		segs = append(segs, Segment{off, 4096})
	}
	order := []int{2, 0, 1, 3}
	who := Origin{Func: "k"}
	acc := getBuf(segsLen(segs))
	require.NoError(t, w.Reduce(2, order, buf, segs, ir.FP32, ir.ReduceSum, acc, who))
	got, _ := asF32(acc)
	k := 0
	for _, s := range segs {
		for i := s.Off / 4; i < (s.Off+s.Len)/4; i++ {
			want := vals[order[0]][i]
			for _, r := range order[1:] {
				want += vals[r][i]
			}
			require.Equal(t, want, got[k], "element %d", i)
			k++
		}
	}
	require.Len(t, log.got, len(order))
	for i, a := range log.got {
		require.Equal(t, Access{Rank: 2, Target: order[i], Origin: who, Buffer: "data", Ranges: ranges(segs), Kind: Read}, a)
	}
}

func TestCopyReportsReadThenWrite(t *testing.T) {
	w, log := testWindows(t, 2)
	src, err := w.Alloc("src", 64, nil)
	require.NoError(t, err)
	dst, err := w.Alloc("dst", 64, nil)
	require.NoError(t, err)
	vals := fill(t, w, src, 2)
	log.got = nil

	s := Region{Rank: 1, Buf: src, Segs: []Segment{{0, 8}, {16, 8}}, Who: Origin{Func: "s"}}
	d := Region{Rank: 0, Buf: dst, Segs: []Segment{{4, 16}}, Who: Origin{Func: "d"}}
	require.NoError(t, w.Copy(0, d, s))
	out := make([]byte, 16)
	require.NoError(t, w.Read(0, 0, dst, []Segment{{4, 16}}, out, Origin{}))
	f := make([]float32, 4)
	getF32(f, out)
	require.Equal(t, []float32{vals[1][0], vals[1][1], vals[1][4], vals[1][5]}, f)
	require.Equal(t, []Access{
		{Rank: 0, Target: 1, Origin: s.Who, Buffer: "src", Ranges: []ByteRange{{0, 8}, {16, 24}}, Kind: Read},
		{Rank: 0, Target: 0, Origin: d.Who, Buffer: "dst", Ranges: []ByteRange{{4, 20}}, Kind: Write},
	}, log.got[:2])
}

// An overlapping copy within one rank's buffer reads everything first, as
// the Read-then-Write it replaces did.
func TestCopyOverlappingIsASnapshot(t *testing.T) {
	w, log := testWindows(t, 1)
	buf, err := w.Alloc("b", 32, nil)
	require.NoError(t, err)
	vals := fill(t, w, buf, 1)
	src := Region{Rank: 0, Buf: buf, Segs: []Segment{{0, 4}, {4, 4}, {8, 4}}}
	dst := Region{Rank: 0, Buf: buf, Segs: []Segment{{4, 4}, {8, 4}, {12, 4}}}
	log.got = nil
	require.NoError(t, w.Copy(0, dst, src))
	require.Equal(t, []ByteRange{{0, 4}, {4, 8}, {8, 12}}, log.got[0].Ranges, "the read names the source, not the snapshot")
	require.Equal(t, []ByteRange{{4, 8}, {8, 12}, {12, 16}}, log.got[1].Ranges)
	out := make([]byte, 32)
	require.NoError(t, w.Read(0, 0, buf, []Segment{{0, 32}}, out, Origin{}))
	f := make([]float32, 8)
	getF32(f, out)
	require.Equal(t, []float32{vals[0][0], vals[0][0], vals[0][1], vals[0][2], vals[0][4], vals[0][5], vals[0][6], vals[0][7]}, f)
}

func TestWriteOwned(t *testing.T) {
	w, log := testWindows(t, 1)
	buf, err := w.Alloc("b", minPooled, nil)
	require.NoError(t, err)
	for _, segs := range [][]Segment{{{0, minPooled}}, {{0, 8}, {16, 8}}} {
		log.got = nil
		src := getBuf(segsLen(segs))
		for i := range src {
			src[i] = byte(i + len(segs))
		}
		want := append([]byte(nil), src...)
		require.NoError(t, w.WriteOwned(0, 0, buf, segs, src, Origin{Func: "k"}))
		got := make([]byte, len(want))
		require.NoError(t, w.Read(0, 0, buf, segs, got, Origin{}))
		require.Equal(t, want, got)
		require.Equal(t, Access{Rank: 0, Target: 0, Origin: Origin{Func: "k"}, Buffer: "b", Ranges: ranges(segs), Kind: Write}, log.got[0])
	}
}
