# Nested ifs whose inner arms each define names of their own (u, z):
# ConvertToSSA gives phis only to names every path defines (out).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Nested:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]], first: pl.Scalar[pl.BOOL], last: pl.Scalar[pl.BOOL]) -> pl.Tensor[[1, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 8])
        if first:
            if last:
                u = pl.add(t, t)
                out = pl.store(u, [0, 0], y)
            else:
                z = pl.tile.full([1, 8], dtype=pl.FP32, value=0.0)
                out = pl.store(z, [0, 0], y)
        else:
            if last:
                u = pl.mul(t, t)
                out = pl.store(u, [0, 0], y)
            else:
                z = pl.tile.full([1, 8], dtype=pl.FP32, value=1.0)
                out = pl.store(z, [0, 0], y)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 1, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 1, 8], pl.FP32]]):
        for r in pl.range(pld.world_size()):
            self.k(x[r], y[r], r < 2, r % 2 == 0, device=r)
