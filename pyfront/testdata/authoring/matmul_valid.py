"""Cube products of operands with valid shapes narrower than their tiles:
the product's storage is the tiles' M and N, its valid rectangle the
operands' valid M and N, so it stores into a tensor of just that size."""

import pypto.language as pl

K = 32
N = 32
VN = 30
VM = 10


@pl.program
class ValidProducts:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, K], pl.FP32],
        m: pl.Tensor[[VM, K], pl.FP32],
        w: pl.Tensor[[K, VN], pl.FP32],
        row: pl.Out[pl.Tensor[[1, VN], pl.FP32]],
        block: pl.Out[pl.Tensor[[VM, VN], pl.FP32]],
    ) -> tuple[pl.Tensor[[1, VN], pl.FP32], pl.Tensor[[VM, VN], pl.FP32]]:
        x_mat = pl.load(x, [0, 0], [1, K], target_memory=pl.Mem.Mat)
        m_mat = pl.load(m, [0, 0], [16, K], valid_shape=[VM, K], target_memory=pl.Mem.Mat, clamp=True)
        w_mat = pl.load(w, [0, 0], [K, N], valid_shape=[K, VN], target_memory=pl.Mem.Mat, clamp=True)
        row = pl.store(pl.tile.gemv(x_mat, w_mat), [0, 0], row)
        block = pl.store(pl.matmul(m_mat, w_mat), [0, 0], block)
        return row, block

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[1, K], pl.FP32],
        m: pl.Tensor[[VM, K], pl.FP32],
        w: pl.Tensor[[K, VN], pl.FP32],
        row: pl.Out[pl.Tensor[[1, VN], pl.FP32]],
        block: pl.Out[pl.Tensor[[VM, VN], pl.FP32]],
    ) -> tuple[pl.Tensor[[1, VN], pl.FP32], pl.Tensor[[VM, VN], pl.FP32]]:
        row, block = self.kernel(x, m, w, row, block)
        return row, block
