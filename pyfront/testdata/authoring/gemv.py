"""GEMV: a row vector by a matrix on the cube (tile.gemv), with a bias row
(tile.gemv_bias), and a split-K sum of two halves (tile.gemv with
acc_phase="partial", then tile.gemv_acc with "final")."""

import pypto.language as pl

K = 64
N = 16


@pl.program
class Gemv:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[1, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        bias: pl.Tensor[[1, N], pl.FP32],
        out: pl.Out[pl.Tensor[[3, N], pl.FP32]],
    ) -> pl.Tensor[[3, N], pl.FP32]:
        a_mat = pl.load(a, [0, 0], [1, K], target_memory=pl.Mem.Mat)
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.Mem.Mat)
        bias_mat = pl.load(bias, [0, 0], [1, N], target_memory=pl.Mem.Mat)
        out = pl.store(pl.tile.gemv(a_mat, b_mat), [0, 0], out)
        out = pl.store(pl.tile.gemv_bias(a_mat, b_mat, bias_mat), [1, 0], out)
        a_lo = pl.load(a, [0, 0], [1, K // 2], target_memory=pl.Mem.Mat)
        b_lo = pl.load(b, [0, 0], [K // 2, N], target_memory=pl.Mem.Mat)
        a_hi = pl.load(a, [0, K // 2], [1, K // 2], target_memory=pl.Mem.Mat)
        b_hi = pl.load(b, [K // 2, 0], [K // 2, N], target_memory=pl.Mem.Mat)
        acc = pl.tile.gemv(a_lo, b_lo, acc_phase="partial")
        acc = pl.tile.gemv_acc(acc, a_hi, b_hi, acc_phase="final")
        out = pl.store(acc, [2, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[1, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        bias: pl.Tensor[[1, N], pl.FP32],
        out: pl.Out[pl.Tensor[[3, N], pl.FP32]],
    ) -> pl.Tensor[[3, N], pl.FP32]:
        out = self.kernel(a, b, bias, out)
        return out
