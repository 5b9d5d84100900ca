"""Seeing bytes as another type: pl.reinterpret_view of a tile (FP32 as
INT32, one element each; FP32 as INT16, twice the columns; INT16 back
with an explicit shape) and of a tensor, lowered to the tile op."""

import pypto.language as pl


@pl.program
class Reinterpret:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        data: pl.Tensor[[8, 16], pl.FP32],
        bits: pl.Out[pl.Tensor[[8, 16], pl.INT32]],
        halves: pl.Out[pl.Tensor[[8, 32], pl.INT16]],
        back: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[8, 16], pl.INT32], pl.Tensor[[8, 32], pl.INT16], pl.Tensor[[8, 16], pl.FP32]]:
        src: pl.Tile[[8, 16], pl.FP32] = pl.load(data, [0, 0], [8, 16])
        as_int: pl.Tile[[8, 16], pl.INT32] = pl.reinterpret_view(src, pl.INT32)
        bits = pl.store(as_int, [0, 0], bits)
        as_i16: pl.Tile[[8, 32], pl.INT16] = pl.reinterpret_view(src, pl.INT16)
        halves = pl.store(as_i16, [0, 0], halves)
        again: pl.Tile[[8, 16], pl.FP32] = pl.reinterpret_view(as_i16, pl.FP32, shape=[8, 16])
        back = pl.store(again, [0, 0], back)
        return bits, halves, back

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        data: pl.Tensor[[8, 16], pl.FP32],
        bits: pl.Out[pl.Tensor[[8, 16], pl.INT32]],
        halves: pl.Out[pl.Tensor[[8, 32], pl.INT16]],
        back: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[8, 16], pl.INT32], pl.Tensor[[8, 32], pl.INT16], pl.Tensor[[8, 16], pl.FP32]]:
        bits, halves, back = self.kernel(data, bits, halves, back)
        return bits, halves, back


@pl.program
class ReinterpretTensor:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(self, data: pl.Tensor[[4, 32], pl.FP32], bits: pl.Out[pl.Tensor[[4, 32], pl.UINT32]]):
        with pl.at(level=pl.Level.CORE_GROUP):
            bits = pl.assemble(bits, pl.reinterpret_view(data, pl.UINT32), [0, 0])
        return bits
