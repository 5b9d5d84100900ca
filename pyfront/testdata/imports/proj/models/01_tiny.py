"""The smallest model: y = 4 x."""

import pypto.language as pl


@pl.program
class Tiny:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [8, 16])
        return pl.store(pl.mul(t, 4.0), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        y = self.kernel(x, y)
        return y
