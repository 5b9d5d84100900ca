package tensor

import (
	"testing"

	"github.com/ptorepl/ptorepl/ir"
)

const benchElems = 1 << 20 // 1 Mi elements

func BenchmarkFromBytes(b *testing.B) {
	raw := Randn(1, benchElems).Bytes()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		FromBytes(ir.FP32, raw, 1024, 1024)
	}
}

func BenchmarkFloat32s(b *testing.B) {
	x := Randn(1, benchElems)
	b.SetBytes(int64(x.NBytes()))
	b.ReportAllocs()
	for b.Loop() {
		x.Float32s()
	}
}

func BenchmarkFloat32sFP16(b *testing.B) {
	x := Randn(1, benchElems).To(ir.FP16)
	b.SetBytes(int64(x.NBytes()))
	b.ReportAllocs()
	for b.Loop() {
		x.Float32s()
	}
}

func BenchmarkString(b *testing.B) {
	x := Randn(1, 1024, 1024)
	b.ReportAllocs()
	for b.Loop() {
		_ = x.String()
	}
}
