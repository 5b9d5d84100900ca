"""Partial-combine ops: the op where both operands are valid, the valid
operand where only one is. src1 is loaded with a ragged valid shape, so
the result is src0 past it; the tensor forms of fully valid operands are
plain elementwise ops."""

import pypto.language as pl

M = 16
N = 32


@pl.program
class PartOps:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src0: pl.Tensor[[M, N], pl.FP32],
        src1: pl.Tensor[[M, N], pl.FP32],
        add: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        mul: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        hi: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        lo: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[M, N], pl.FP32], pl.Tensor[[M, N], pl.FP32], pl.Tensor[[M, N], pl.FP32], pl.Tensor[[M, N], pl.FP32]]:
        t0: pl.Tile[[M, N], pl.FP32] = pl.load(src0, [0, 0], [M, N])
        t1: pl.Tile[[M, N], pl.FP32] = pl.load(src1, [0, 0], [M, N], valid_shape=[8, 20])
        add = pl.store(pl.tile.part_add(t0, t1), [0, 0], add)
        mul = pl.store(pl.tile.part_mul(t1, t0), [0, 0], mul)
        hi = pl.store(pl.tile.part_max(t0, t1), [0, 0], hi)
        lo = pl.store(pl.tile.part_min(t0, t1), [0, 0], lo)
        return add, mul, hi, lo

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        src0: pl.Tensor[[M, N], pl.FP32],
        src1: pl.Tensor[[M, N], pl.FP32],
        add: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        mul: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        hi: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        lo: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[M, N], pl.FP32], pl.Tensor[[M, N], pl.FP32], pl.Tensor[[M, N], pl.FP32], pl.Tensor[[M, N], pl.FP32]]:
        add, mul, hi, lo = self.kernel(src0, src1, add, mul, hi, lo)
        return add, mul, hi, lo


@pl.program
class TensorPartOps:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        src0: pl.Tensor[[M, N], pl.FP32],
        src1: pl.Tensor[[M, N], pl.FP32],
        add: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        hi: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            add = pl.assemble(add, pl.part_add(src0, src1), [0, 0])
            hi = pl.assemble(hi, pl.part_max(src0, src1), [0, 0])
        return add, hi
