"""Scalar reads and writes of a kernel's own values.

t is computed on chip (a tile after ConvertTensorToTileOps): writing a
scalar into it and reading one back become tile.write and tile.read, as
upstream converts them; a is an input the kernel loads, so its read takes
the loaded tile too. s, a tensor the kernel creates and only reads and
writes, is a tile (tile.create) as upstream makes every kernel's.
"""
import pypto.language as pl


@pl.program
class LocalScalars:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[8, 32], pl.FP32], b: pl.Tensor[[8, 32], pl.FP32]) -> pl.Tensor[[8, 32], pl.FP32]:
        t: pl.Tensor[[8, 32], pl.FP32] = pl.add(a, b)
        first: pl.Scalar[pl.FP32] = pl.tensor.read(a, [0, 0])
        pl.tensor.write(t, [1, 2], first)
        back: pl.Scalar[pl.FP32] = pl.tensor.read(t, [1, 2])
        s: pl.Tensor[[4], pl.FP32] = pl.tensor.create([4], dtype=pl.FP32)
        pl.tensor.write(s, [2], back)
        again: pl.Scalar[pl.FP32] = pl.tensor.read(s, [2])
        u: pl.Tensor[[8, 32], pl.FP32] = pl.mul(t, again)
        return u

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[8, 32], pl.FP32], b: pl.Tensor[[8, 32], pl.FP32], out: pl.Out[pl.Tensor[[8, 32], pl.FP32]]):
        u = self.kernel(a, b)
        out = pl.assemble(out, u, [0, 0])
        return out
