"""pl.tile.gatherb: 32-byte blocks of a tile gathered at UINT32 byte
offsets, one block per offset, read as output_dtype. Reversing a table's
blocks, and reading INT16 pairs back as INT32.
"""

import pypto.language as pl


@pl.program
class Gatherb:
    @pl.function(type=pl.FunctionType.InCore)
    def blocks(
        self,
        src: pl.Tensor[[1, 128], pl.FP32],
        halves: pl.Tensor[[1, 256], pl.INT16],
        offset: pl.Tensor[[2, 8], pl.UINT32],
        out: pl.Out[pl.Tensor[[2, 64], pl.FP32]],
        words: pl.Out[pl.Tensor[[2, 64], pl.INT32]],
    ):
        s = pl.load(src, [0, 0], [1, 128])
        h = pl.load(halves, [0, 0], [1, 256])
        o = pl.load(offset, [0, 0], [2, 8])
        pl.store(pl.tile.gatherb(s, o), [0, 0], out)
        pl.store(pl.tile.gatherb(h, o, output_dtype=pl.INT32), [0, 0], words)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        src: pl.Tensor[[1, 128], pl.FP32],
        halves: pl.Tensor[[1, 256], pl.INT16],
        offset: pl.Tensor[[2, 8], pl.UINT32],
        out: pl.Out[pl.Tensor[[2, 64], pl.FP32]],
        words: pl.Out[pl.Tensor[[2, 64], pl.INT32]],
    ):
        self.blocks(src, halves, offset, out, words)
