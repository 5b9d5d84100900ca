"""A kernel in the printed SSA form whose if binds one name in both branches.

The reader makes the two `y` one variable (as a non-SSA name); each branch
must still yield the tile it computed (ConvertTensorToTileOps once yielded
the else branch's tile from both), and both bind y's one tile variable.
"""
import pypto.language as pl


@pl.program
class Branches:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, n: pl.Scalar[pl.INT64], x: pl.Tensor[[8, 32], pl.FP32]) -> pl.Tensor[[8, 32], pl.FP32]:
        if n == 0:
            y: pl.Tensor[[8, 32], pl.FP32] = pl.add(x, x)
            picked = pl.yield_(y)
        else:
            y: pl.Tensor[[8, 32], pl.FP32] = pl.mul(x, x)
            picked = pl.yield_(y)
        return picked

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[8, 32], pl.FP32], n: pl.Scalar[pl.INT64], out: pl.Out[pl.Tensor[[8, 32], pl.FP32]]):
        picked = self.kernel(n, x)
        out = pl.assemble(out, picked, [0, 0])
        return out
