"""Transposes that move data: a tensor's (its lowering adds the scratch
tile pto.ttrans needs) and a tile's with its scratch tile given."""

import pypto.language as pl


@pl.program
class Transpose:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        xt: pl.Out[pl.Tensor[[16, 8], pl.FP32]],
        tt: pl.Out[pl.Tensor[[16, 8], pl.FP32]],
    ):
        xt = pl.assemble(xt, pl.transpose(x, 0, 1), [0, 0])
        t = pl.load(x, [0, 0], [8, 16])
        tmp = pl.create_tile([8, 16], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        pl.store(pl.tile.transpose(t, 1, 0, tmp), [0, 0], tt)
        return xt

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        xt: pl.Out[pl.Tensor[[16, 8], pl.FP32]],
        tt: pl.Out[pl.Tensor[[16, 8], pl.FP32]],
    ):
        self.kernel(x, xt, tt)
