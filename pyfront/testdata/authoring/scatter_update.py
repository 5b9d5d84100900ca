"""scatter_update writes rows of src over rows of input, at the row
numbers index holds; the other rows pass through. Both forms lower to
tile.scatter at flat element indices."""

import pypto.language as pl


@pl.program
class TileScatterUpdate:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        inp: pl.Tensor[[16, 32], pl.FP32],
        index: pl.Tensor[[2, 4], pl.INT32],
        src: pl.Tensor[[8, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t: pl.Tile[[16, 32], pl.FP32] = pl.load(inp, [0, 0], [16, 32])
        i: pl.Tile[[2, 4], pl.INT32] = pl.load(index, [0, 0], [2, 4])
        s: pl.Tile[[8, 32], pl.FP32] = pl.load(src, [0, 0], [8, 32])
        r: pl.Tile[[16, 32], pl.FP32] = pl.tile.scatter_update(t, dim=-2, index=i, src=s)
        return pl.store(r, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        inp: pl.Tensor[[16, 32], pl.FP32],
        index: pl.Tensor[[2, 4], pl.INT32],
        src: pl.Tensor[[8, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        out = self.kernel(inp, index, src, out)
        return out


@pl.program
class TensorScatterUpdate:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        inp: pl.Tensor[[16, 32], pl.FP32],
        index: pl.Tensor[[2, 4], pl.INT32],
        src: pl.Tensor[[8, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.assemble(out, pl.scatter_update(inp, -2, index, src), [0, 0])
        return out
