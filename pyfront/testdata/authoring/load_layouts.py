"""Loads whose layout follows their shape, as upstream's tile.load picks
it: a column ([16, 1]) is col_major, and a single row loaded to Mat (a
GEMV's lhs) is an ND row, row_major / none_box, not the NZ pair."""

import pypto.language as pl


@pl.program
class ColumnScale:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        x: pl.Tensor[[16, 1], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 1], pl.FP32]],
    ) -> pl.Tensor[[16, 1], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 1])
        y = pl.store(pl.mul(t, 3.0), [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 1], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 1], pl.FP32]],
    ) -> pl.Tensor[[16, 1], pl.FP32]:
        y = self.scale(x, y)
        return y


@pl.program
class RowTimesMatrix:
    @pl.function(type=pl.FunctionType.InCore)
    def gemv(
        self,
        a: pl.Tensor[[1, 64], pl.FP16],
        b: pl.Tensor[[64, 32], pl.FP16],
        y: pl.Out[pl.Tensor[[1, 32], pl.FP32]],
    ) -> pl.Tensor[[1, 32], pl.FP32]:
        ta = pl.load(a, [0, 0], [1, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 32], target_memory=pl.Mem.Mat)
        y = pl.store(pl.tile.matmul(ta, tb), [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[1, 64], pl.FP16],
        b: pl.Tensor[[64, 32], pl.FP16],
        y: pl.Out[pl.Tensor[[1, 32], pl.FP32]],
    ) -> pl.Tensor[[1, 32], pl.FP32]:
        y = self.gemv(a, b, y)
        return y


@pl.program
class ColumnAccumulate:
    """A [16, 1] tile made by tile.create is a column too: col_major with
    no view written, as the row sums added into it are."""

    @pl.function(type=pl.FunctionType.InCore)
    def sums(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 1], pl.FP32]],
    ) -> pl.Tensor[[16, 1], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        tmp = pl.create_tile([16, 64], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        acc = pl.tile.create([16, 1], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        acc = pl.tile.muls(acc, 0.0)
        s = pl.row_sum(t, tmp)
        acc = pl.add(acc, s)
        y = pl.store(acc, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 1], pl.FP32]],
    ) -> pl.Tensor[[16, 1], pl.FP32]:
        y = self.sums(x, y)
        return y
