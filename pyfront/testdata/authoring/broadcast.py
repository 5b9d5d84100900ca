"""Tensor ops broadcast their operands as NumPy does: tensor.add, sub,
mul, div, maximum, minimum and fmod deduce the broadcast shape, as
upstream's do. ConvertTensorToTileOps lowers an [M, N] and [M, 1] pair to
the op's row-expand tile form (pl.sub(x, m) is tile.row_expand_sub), the
wide operand first; add and mul take the column on either side. Other
broadcasts run as written.
"""

import pypto.language as pl


@pl.program
class RowBroadcast:
    @pl.function(type=pl.FunctionType.InCore)
    def normalize(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        m = pl.row_max(x)
        e = pl.exp(pl.sub(x, m))
        s = pl.row_sum(e)
        p = pl.div(e, s)
        q = pl.add(pl.mul(m, p), p)
        y = pl.assemble(y, q, [0, 0])
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        y = self.normalize(x, y)
        return y


@pl.program
class OuterOps:
    @pl.function(type=pl.FunctionType.InCore)
    def outer(
        self,
        col: pl.Tensor[[4, 1], pl.FP32],
        row: pl.Tensor[[1, 8], pl.FP32],
        cube: pl.Tensor[[2, 1, 8], pl.FP32],
        sums: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
        maxes: pl.Out[pl.Tensor[[2, 4, 8], pl.FP32]],
    ) -> tuple[pl.Tensor[[4, 8], pl.FP32], pl.Tensor[[2, 4, 8], pl.FP32]]:
        sums = pl.assemble(sums, pl.add(col, row), [0, 0])
        maxes = pl.assemble(maxes, pl.maximum(cube, pl.sub(row, col)), [0, 0, 0])
        return sums, maxes

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        col: pl.Tensor[[4, 1], pl.FP32],
        row: pl.Tensor[[1, 8], pl.FP32],
        cube: pl.Tensor[[2, 1, 8], pl.FP32],
        sums: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
        maxes: pl.Out[pl.Tensor[[2, 4, 8], pl.FP32]],
    ) -> tuple[pl.Tensor[[4, 8], pl.FP32], pl.Tensor[[2, 4, 8], pl.FP32]]:
        sums, maxes = self.outer(col, row, cube, sums, maxes)
        return sums, maxes
