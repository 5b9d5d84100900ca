"""tile.extract: cube operands cut from Mat tiles (the lower half of a's
rows into Left, b whole into Right) and multiplied."""

import pypto.language as pl


@pl.program
class Extract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[32, 64], pl.FP16],
        b: pl.Tensor[[64, 16], pl.FP16],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a_mat = pl.load(a, [0, 0], [32, 64], target_memory=pl.Mem.Mat)
        b_mat = pl.load(b, [0, 0], [64, 16], target_memory=pl.Mem.Mat)
        lower = pl.tile.extract(a_mat, 16, 0, [16, 64], target_memory=pl.Mem.Left)
        whole = pl.tile.extract(b_mat, 0, 0, [64, 16], target_memory=pl.Mem.Right)
        c = pl.store(pl.tile.matmul(lower, whole), [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[32, 64], pl.FP16],
        b: pl.Tensor[[64, 16], pl.FP16],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        c = self.kernel(a, b, c)
        return c
