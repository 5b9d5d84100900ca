"""tile.sels with its predicate mask carried in an INT16 tile loaded from
GM: the mask is the bits of each row's 32 bytes, whatever integer type
holds them."""

import pypto.language as pl


@pl.program
class SelsCarrier:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: pl.Tensor[[2, 16], pl.FP32],
        bits: pl.Tensor[[2, 16], pl.INT16],
        out: pl.Out[pl.Tensor[[2, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16], pl.FP32]:
        s = pl.load(src, [0, 0], [2, 16])
        mask = pl.load(bits, [0, 0], [2, 16])
        tmp = pl.tile.create([1, 8], dtype=pl.FP32)
        out = pl.store(pl.tile.sels(mask, s, tmp, -3.0), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        src: pl.Tensor[[2, 16], pl.FP32],
        bits: pl.Tensor[[2, 16], pl.INT16],
        out: pl.Out[pl.Tensor[[2, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16], pl.FP32]:
        out = self.kernel(src, bits, out)
        return out
