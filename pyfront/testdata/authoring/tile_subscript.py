"""Subscripts on a tile: pre_t[1:2, 0:8] is a tile.slice of it (a view),
here rows of a transposed tile turned into per-row scales, as upstream's
multi-output SPMD kernel slices its transposed weights."""

import pypto.language as pl


@pl.program
class TileSubscript:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 32], pl.FP32],
        pre: pl.Tensor[[8, 8], pl.FP32],
        y: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        pre_t = pl.transpose(pl.load(pre, [0, 0], [8, 8]), axis1=0, axis2=1)
        s0 = pl.reshape(pre_t[0:1, 0:8], [8, 1])
        s1 = pl.reshape(pre_t[1:2, :], [8, 1])
        y0 = pl.row_expand_mul(pl.load(x, [0, 0], [8, 16]), s0)
        y1 = pl.row_expand_mul(pl.load(x, [0, 16], [8, 16]), s1)
        y = pl.store(y0, [0, 0], y)
        y = pl.store(y1, [0, 16], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[8, 32], pl.FP32],
        pre: pl.Tensor[[8, 8], pl.FP32],
        y: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        y = self.kernel(x, pre, y)
        return y
