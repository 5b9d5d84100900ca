"""Counter-based random tiles: pl.tile.random in a kernel (seed words,
a shape, a valid shape, INT32 words, seven rounds) and pl.random of a
tensor, lowered to it. The first two draws use the Random123 library's
Philox4x32-10 known-answer seeds; words past INT32's range are written
as the negative numbers of their bits."""

import pypto.language as pl


@pl.program
class RandomTiles:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        zero: pl.Out[pl.Tensor[[2, 8], pl.UINT32]],
        pi: pl.Out[pl.Tensor[[1, 4], pl.UINT32]],
        signed: pl.Out[pl.Tensor[[2, 8], pl.INT32]],
        narrow: pl.Out[pl.Tensor[[4, 16], pl.UINT32]],
        diff: pl.Out[pl.Tensor[[4, 64], pl.UINT32]],
    ) -> tuple[
        pl.Tensor[[2, 8], pl.UINT32],
        pl.Tensor[[1, 4], pl.UINT32],
        pl.Tensor[[2, 8], pl.INT32],
        pl.Tensor[[4, 16], pl.UINT32],
        pl.Tensor[[4, 64], pl.UINT32],
    ]:
        a: pl.Tile[[2, 8], pl.UINT32] = pl.tile.random(0, 0, 0, 0, 0, 0, [2, 8])
        zero = pl.store(a, [0, 0], zero)
        b: pl.Tile[[1, 4], pl.UINT32] = pl.tile.random(
            -1542899678, 698298832, 608135816, -2052912941, 320440878, 57701188, [1, 4]
        )
        pi = pl.store(b, [0, 0], pi)
        s: pl.Tile[[2, 8], pl.INT32] = pl.tile.random(0, 0, 0, 0, 0, 0, [2, 8], dtype=pl.INT32)
        signed = pl.store(s, [0, 0], signed)
        n = pl.tile.random(0x55, 0x66, 1, 0, 0, 0, [4, 16], valid_shape=[3, 5])
        filled: pl.Tile[[4, 16], pl.UINT32] = pl.tile.fillpad(n, pad_value=pl.PadValue.zero)
        narrow = pl.store(filled, [0, 0], narrow)
        r: pl.Tile[[4, 64], pl.UINT32] = pl.tile.random(0x1111, 0x2222, 5, 6, 7, 8, [4, 64], rounds=7)
        again: pl.Tile[[4, 64], pl.UINT32] = pl.tile.random(0x1111, 0x2222, 5, 6, 7, 8, [4, 64], rounds=7)
        d: pl.Tile[[4, 64], pl.UINT32] = pl.tile.sub(r, again)
        diff = pl.store(d, [0, 0], diff)
        return zero, pi, signed, narrow, diff

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        zero: pl.Out[pl.Tensor[[2, 8], pl.UINT32]],
        pi: pl.Out[pl.Tensor[[1, 4], pl.UINT32]],
        signed: pl.Out[pl.Tensor[[2, 8], pl.INT32]],
        narrow: pl.Out[pl.Tensor[[4, 16], pl.UINT32]],
        diff: pl.Out[pl.Tensor[[4, 64], pl.UINT32]],
    ) -> tuple[
        pl.Tensor[[2, 8], pl.UINT32],
        pl.Tensor[[1, 4], pl.UINT32],
        pl.Tensor[[2, 8], pl.INT32],
        pl.Tensor[[4, 16], pl.UINT32],
        pl.Tensor[[4, 64], pl.UINT32],
    ]:
        zero, pi, signed, narrow, diff = self.kernel(zero, pi, signed, narrow, diff)
        return zero, pi, signed, narrow, diff


@pl.program
class RandomTensor:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, out: pl.Out[pl.Tensor[[4, 32], pl.UINT32]]) -> pl.Tensor[[4, 32], pl.UINT32]:
        a: pl.Tensor[[4, 32], pl.UINT32] = pl.random(0, 0, 0, 0, 0, 0, [4, 32])
        return pl.assemble(out, a, [0, 0])

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, out: pl.Out[pl.Tensor[[4, 32], pl.UINT32]]) -> pl.Tensor[[4, 32], pl.UINT32]:
        return self.kernel(out)
