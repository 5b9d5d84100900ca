package pl

import (
	"github.com/ptorepl/ptorepl/internal/dsl"
	"github.com/ptorepl/ptorepl/ir"
)

// Gemv is a row vector lhs [1, K] by rhs [K, N] on the cube (Mat operands
// move to Left and Right), an Acc row [1, N]; accPhase is "" or
// "unspecified", "partial" or "final" (the split-K step, an attribute of
// the NPU's TGEMV). PyPTO: pl.tile.gemv(lhs, rhs, acc_phase=...).
func Gemv(lhs, rhs any, accPhase string) Expr {
	return dsl.Call(ir.TileGemv, []ir.Expr{arg(lhs, "pl.Gemv", "lhs"), arg(rhs, "pl.Gemv", "rhs")}, phaseKw(accPhase))
}

// BatchMatmul is lhs @ rhs for cube tiles [..., M, K] and [..., K, N] of
// rank 2 or more, their batch dimensions broadcast, into a new Acc tile
// [..., M, N]: one matmul per batch. PyPTO: pl.batch_matmul(lhs, rhs).
func BatchMatmul(lhs, rhs any) Expr {
	return dsl.Call(ir.TileBatchMatmul, []ir.Expr{arg(lhs, "pl.BatchMatmul", "lhs"), arg(rhs, "pl.BatchMatmul", "rhs")}, nil)
}

// BatchMatmulAcc is acc += lhs @ rhs page by page, in place on the Acc
// tile acc [..., M, N], as BatchMatmul multiplies.
// PyPTO: pl.batch_matmul_acc(acc, lhs, rhs).
func BatchMatmulAcc(acc, lhs, rhs any) Expr {
	return dsl.Call(ir.TileBatchMatmulAcc, []ir.Expr{arg(acc, "pl.BatchMatmulAcc", "acc"), arg(lhs, "pl.BatchMatmulAcc", "lhs"), arg(rhs, "pl.BatchMatmulAcc", "rhs")}, nil)
}

// GemvAcc is acc += lhs @ rhs for a row vector lhs, like Gemv.
// PyPTO: pl.tile.gemv_acc(acc, lhs, rhs, acc_phase=...).
func GemvAcc(acc, lhs, rhs any, accPhase string) Expr {
	return dsl.Call(ir.TileGemvAcc, []ir.Expr{arg(acc, "pl.GemvAcc", "acc"), arg(lhs, "pl.GemvAcc", "lhs"), arg(rhs, "pl.GemvAcc", "rhs")}, phaseKw(accPhase))
}

// GemvBias is lhs @ rhs + bias for a row vector lhs, bias a row [1, N] of
// the accumulator type, like Gemv. PyPTO: pl.tile.gemv_bias(lhs, rhs, bias).
func GemvBias(lhs, rhs, bias any, accPhase string) Expr {
	return dsl.Call(ir.TileGemvBias, []ir.Expr{arg(lhs, "pl.GemvBias", "lhs"), arg(rhs, "pl.GemvBias", "rhs"), arg(bias, "pl.GemvBias", "bias")}, phaseKw(accPhase))
}

func phaseKw(p string) ir.Kwargs {
	if p == "" {
		return nil
	}
	return ir.Kwargs{{Key: "acc_phase", Value: p}}
}

// Extract is the [rows, cols] window of a 2-D tile at (row, col), placed
// in mem (typically a Mat source into Left or Right, a cube operand). PyPTO: pl.tile.extract(src, row, col, shape, target_memory=mem).
func Extract(src, row, col, shape any, mem MemorySpace) Expr {
	return dsl.Call(ir.TileExtract, []ir.Expr{arg(src, "pl.Extract", "src"), arg(row, "pl.Extract", "index_row"),
		arg(col, "pl.Extract", "index_col"), dsl.TupleArg(shape, "pl.Extract shape")}, ir.Kwargs{{Key: "target_memory", Value: mem}})
}
