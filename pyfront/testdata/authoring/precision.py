"""PTOAS's high-precision mode of div, log and recip: on tiles and on
tensors, beside the same ops without it."""

import pypto.language as pl


@pl.program
class TilePrecision:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        y: pl.Tensor[[8, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[6, 8, 16], pl.FP32]],
    ):
        a = pl.load(x, [0, 0], [8, 16])
        b = pl.load(y, [0, 0], [8, 16])
        pl.store(pl.div(a, b, high_precision=True), [0, 0, 0], out)
        pl.store(pl.tile.div(a, b), [1, 0, 0], out)
        pl.store(pl.tile.log(b, high_precision=True), [2, 0, 0], out)
        pl.store(pl.log(b, high_precision=False), [3, 0, 0], out)
        pl.store(pl.recip(b, high_precision=True), [4, 0, 0], out)
        pl.store(pl.tile.recip(b), [5, 0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        y: pl.Tensor[[8, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[6, 8, 16], pl.FP32]],
    ):
        self.kernel(x, y, out)


@pl.program
class TensorPrecision:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 16], pl.FP16],
        y: pl.Tensor[[8, 16], pl.FP16],
        q: pl.Out[pl.Tensor[[8, 16], pl.FP16]],
        lg: pl.Out[pl.Tensor[[8, 16], pl.FP16]],
    ):
        q = pl.assemble(q, pl.div(x, y, high_precision=True), [0, 0])
        lg = pl.assemble(lg, pl.tensor.log(y, high_precision=True), [0, 0])
        return q, lg
