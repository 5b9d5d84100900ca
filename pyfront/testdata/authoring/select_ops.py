"""Selection and mask tiles: tile.sels picks a tile's element or a scalar
by tile.cmps's packed mask, tile.prelu scales negatives by a slope tile,
tile.row_expand repeats a column, tile.tri writes a 0/1 triangle."""

import pypto.language as pl

R = 16
C = 32


@pl.program
class SelectOps:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[R, C], pl.FP32],
        slope: pl.Tensor[[R, C], pl.FP32],
        col: pl.Tensor[[R, 1], pl.FP32],
        out: pl.Out[pl.Tensor[[3 * R, C], pl.FP32]],
    ) -> pl.Tensor[[3 * R, C], pl.FP32]:
        x = pl.load(a, [0, 0], [R, C])
        k = pl.load(slope, [0, 0], [R, C])
        v = pl.load(col, [0, 0], [R, 1])
        mask: pl.Tile[[R, 32], pl.UINT8] = pl.tile.cmps(x, 0.0, cmp_type=5)
        sel_tmp = pl.tile.create([1, 32], pl.UINT8, target_memory=pl.MemorySpace.Vec)
        out = pl.store(pl.tile.sels(mask, x, sel_tmp, -1.0), [0, 0], out)
        prelu_tmp = pl.tile.create([R + 1, C], pl.UINT8, target_memory=pl.MemorySpace.Vec)
        out = pl.store(pl.tile.prelu(x, k, prelu_tmp), [R, 0], out)
        out = pl.store(pl.row_expand(x, v), [2 * R, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[R, C], pl.FP32],
        slope: pl.Tensor[[R, C], pl.FP32],
        col: pl.Tensor[[R, 1], pl.FP32],
        out: pl.Out[pl.Tensor[[3 * R, C], pl.FP32]],
    ) -> pl.Tensor[[3 * R, C], pl.FP32]:
        out = self.kernel(a, slope, col, out)
        return out


@pl.program
class Triangles:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, out: pl.Out[pl.Tensor[[2 * R, R], pl.FP32]]) -> pl.Tensor[[2 * R, R], pl.FP32]:
        lower = pl.tile.tri(0, [R, R], valid_shape=None, dtype=pl.FP32)
        upper = pl.tile.tri(2, [R, R], [8, R], dtype=pl.FP32, upper=True)
        out = pl.store(lower, [0, 0], out)
        out = pl.store(upper, [R, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, out: pl.Out[pl.Tensor[[2 * R, R], pl.FP32]]) -> pl.Tensor[[2 * R, R], pl.FP32]:
        out = self.kernel(out)
        return out
