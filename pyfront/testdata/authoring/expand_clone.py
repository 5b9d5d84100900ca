"""pl.expand_clone: a rank-3 tensor broadcast into a target of its rank,
a 1 expanded in at most one dimension (or none: a copy). The factory
builds the kernel for the input shape that broadcasts dimension dim."""

import pypto.language as pl


def build_expand(b: int, n: int, k: int, dim: int):
    shape = [b, n, k]
    if dim == 0:
        shape = [1, n, k]
    elif dim == 1:
        shape = [b, 1, k]
    elif dim == 2:
        shape = [b, n, 1]

    @pl.program
    class Expand:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[shape, pl.FP32], y: pl.Out[pl.Tensor[[b, n, k], pl.FP32]]) -> pl.Tensor[[b, n, k], pl.FP32]:
            out: pl.Tensor[[b, n, k], pl.FP32] = pl.expand_clone(x, y)
            return out

        @pl.function(type=pl.FunctionType.Orchestration)
        def orchestrator(self, x: pl.Tensor[shape, pl.FP32], y: pl.Out[pl.Tensor[[b, n, k], pl.FP32]]) -> pl.Tensor[[b, n, k], pl.FP32]:
            y = self.kernel(x, y)
            return y

    return Expand
