"""Comparisons: tile.cmp and tile.cmps pack one predicate bit per element,
tile.sel picks by them, and tensor.cmp gives 1 or 0 in the operands'
dtype (lowered to cmp, two fulls and sel)."""

import pypto.language as pl


@pl.program
class Compare:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[8, 40], pl.FP32],
        b: pl.Tensor[[8, 40], pl.FP32],
        bigger: pl.Out[pl.Tensor[[8, 40], pl.FP32]],
        positive: pl.Out[pl.Tensor[[8, 40], pl.FP32]],
    ) -> tuple[pl.Tensor[[8, 40], pl.FP32], pl.Tensor[[8, 40], pl.FP32]]:
        x: pl.Tile[[8, 40], pl.FP32] = pl.load(a, [0, 0], [8, 40])
        y: pl.Tile[[8, 40], pl.FP32] = pl.load(b, [0, 0], [8, 40])
        tmp: pl.Tile[[1, 32], pl.UINT8] = pl.tile.create([1, 32], dtype=pl.UINT8, target_memory=pl.MemorySpace.Vec)
        gt: pl.Tile[[8, 32], pl.UINT8] = pl.tile.cmp(x, y, cmp_type=4)
        pos: pl.Tile[[8, 32], pl.UINT8] = pl.tile.cmps(x, 0.0, cmp_type=5)
        zero: pl.Tile[[8, 40], pl.FP32] = pl.tile.full([8, 40], dtype=pl.FP32, value=0.0)
        bigger = pl.store(pl.tile.sel(gt, x, y, tmp), [0, 0], bigger)
        positive = pl.store(pl.tile.sel(pos, x, zero, tmp), [0, 0], positive)
        return bigger, positive

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[8, 40], pl.FP32],
        b: pl.Tensor[[8, 40], pl.FP32],
        bigger: pl.Out[pl.Tensor[[8, 40], pl.FP32]],
        positive: pl.Out[pl.Tensor[[8, 40], pl.FP32]],
    ) -> tuple[pl.Tensor[[8, 40], pl.FP32], pl.Tensor[[8, 40], pl.FP32]]:
        bigger, positive = self.kernel(a, b, bigger, positive)
        return bigger, positive


@pl.program
class TensorCompare:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[8, 40], pl.FP32],
        b: pl.Tensor[[8, 40], pl.FP32],
        lt: pl.Out[pl.Tensor[[8, 40], pl.FP32]],
        ne: pl.Out[pl.Tensor[[8, 40], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            lt = pl.assemble(lt, pl.cmp(a, b, cmp_type=2), [0, 0])
            ne = pl.assemble(ne, pl.cmp(a, 0.5, cmp_type=1), [0, 0])
        return lt, ne
