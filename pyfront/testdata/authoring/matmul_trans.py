"""Transposed matmul operands: loaded as they are into Mat and seen
transposed there (tile.transpose_view), as upstream lowers a_trans/b_trans."""

import pypto.language as pl


@pl.program
class MatmulTrans:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[32, 16], pl.FP16],
        b: pl.Tensor[[16, 32], pl.FP16],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        d: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        c = pl.assemble(c, pl.matmul(a, b, a_trans=True, b_trans=True, out_dtype=pl.FP32), [0, 0])
        d = pl.assemble(d, pl.matmul(b, b, b_trans=True, out_dtype=pl.FP32), [0, 0])
        return c, d

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[32, 16], pl.FP16],
        b: pl.Tensor[[16, 32], pl.FP16],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        d: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        self.kernel(a, b, c, d)
