"""One element of a tile at a time: pl.tile.read gives a scalar, and
pl.tile.write sets one in place (pto.tgetval / pto.tsetval). Row i's
first element becomes the element of row i that idx[0, i] names."""

import pypto.language as pl


@pl.program
class TileElements:
    @pl.function(type=pl.FunctionType.InCore)
    def pick(
        self,
        idx: pl.Tensor[[1, 8], pl.INT32],
        src: pl.Tensor[[4, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        it: pl.Tile[[1, 8], pl.INT32] = pl.load(idx, [0, 0], [1, 8])
        t: pl.Tile[[4, 16], pl.FP32] = pl.load(src, [0, 0], [4, 16])
        for i in pl.range(4):
            col: pl.Scalar[pl.INT32] = pl.tile.read(it, [0, i])
            c: pl.Scalar[pl.INDEX] = pl.cast(col, pl.INDEX)
            v: pl.Scalar[pl.FP32] = pl.tile.read(t, [i, c])
            t = pl.tile.write(t, [i, 0], v)
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        idx: pl.Tensor[[1, 8], pl.INT32],
        src: pl.Tensor[[4, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        out = self.pick(idx, src, out)
        return out
