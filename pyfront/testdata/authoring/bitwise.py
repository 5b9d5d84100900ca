"""Bitwise ops on integer tiles and tensors (and_, or_, xor with its
scratch tile, shl, shr, their scalar forms, not_), and the tile-by-scalar
maximums, minimums and lrelu."""

import pypto.language as pl

R = 16
C = 32


@pl.program
class BitwiseTiles:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[R, C], pl.INT32],
        b: pl.Tensor[[R, C], pl.INT32],
        s: pl.Tensor[[R, C], pl.INT32],
        out: pl.Out[pl.Tensor[[11 * R, C], pl.INT32]],
    ) -> pl.Tensor[[11 * R, C], pl.INT32]:
        x = pl.load(a, [0, 0], [R, C])
        y = pl.load(b, [0, 0], [R, C])
        k = pl.load(s, [0, 0], [R, C])
        tmp = pl.tile.create([R, C], pl.INT32, target_memory=pl.MemorySpace.Vec)
        out = pl.store(pl.and_(x, y), [0, 0], out)
        out = pl.store(pl.tile.or_(x, y), [R, 0], out)
        out = pl.store(pl.xor(x, y, tmp), [2 * R, 0], out)
        out = pl.store(pl.shl(x, k), [3 * R, 0], out)
        out = pl.store(pl.tile.shr(x, k), [4 * R, 0], out)
        out = pl.store(pl.and_(x, 0xF0F), [5 * R, 0], out)
        out = pl.store(pl.tile.ors(x, 6), [6 * R, 0], out)
        out = pl.store(pl.xors(x, -1, tmp), [7 * R, 0], out)
        out = pl.store(pl.tile.shls(x, 3), [8 * R, 0], out)
        out = pl.store(pl.shr(x, 2), [9 * R, 0], out)
        out = pl.store(pl.not_(x), [10 * R, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[R, C], pl.INT32],
        b: pl.Tensor[[R, C], pl.INT32],
        s: pl.Tensor[[R, C], pl.INT32],
        out: pl.Out[pl.Tensor[[11 * R, C], pl.INT32]],
    ) -> pl.Tensor[[11 * R, C], pl.INT32]:
        out = self.kernel(a, b, s, out)
        return out


@pl.program
class BitwiseTensors:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[R, C], pl.INT32],
        b: pl.Tensor[[R, C], pl.INT32],
        out: pl.Out[pl.Tensor[[4 * R, C], pl.INT32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.assemble(out, pl.xor(a, b), [0, 0])
            out = pl.assemble(out, pl.tensor.ors(a, 1), [R, 0])
            out = pl.assemble(out, pl.not_(pl.and_(a, b)), [2 * R, 0])
            out = pl.assemble(out, pl.tensor.shrs(a, 1), [3 * R, 0])
        return out


@pl.program
class ScalarTiles:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[3 * R, C], pl.FP32]],
    ) -> pl.Tensor[[3 * R, C], pl.FP32]:
        x = pl.load(a, [0, 0], [R, C])
        out = pl.store(pl.maximum(x, 0.3), [0, 0], out)
        out = pl.store(pl.tile.minimums(x, -0.5), [R, 0], out)
        out = pl.store(pl.tile.lrelu(x, 0.1), [2 * R, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[3 * R, C], pl.FP32]],
    ) -> pl.Tensor[[3 * R, C], pl.FP32]:
        out = self.kernel(a, out)
        return out


@pl.program
class TensorScalarMax:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.assemble(out, pl.maximum(a, 0.3), [0, 0])
            out = pl.assemble(out, pl.tensor.minimum(a, -0.5), [R, 0])
        return out
