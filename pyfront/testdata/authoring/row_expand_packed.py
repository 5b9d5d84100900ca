"""tile.row_expand_add with its row values packed in a 32-byte block per
row (repeated across the columns), and with the optional scratch tile."""

import pypto.language as pl


@pl.program
class PackedRowAdd:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        packed: pl.Tensor[[16, 8], pl.FP32],
        col: pl.Tensor[[16, 1], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 16, 32], pl.FP32]],
    ) -> pl.Tensor[[2, 16, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        p = pl.load(packed, [0, 0], [16, 8])
        c = pl.load(col, [0, 0], [16, 1])
        tmp = pl.tile.create([16, 32], dtype=pl.FP32)
        out = pl.store(pl.tile.row_expand_add(t, p), [0, 0, 0], out)
        out = pl.store(pl.tile.row_expand_add(t, c, tmp=tmp), [1, 0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        packed: pl.Tensor[[16, 8], pl.FP32],
        col: pl.Tensor[[16, 1], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 16, 32], pl.FP32]],
    ) -> pl.Tensor[[2, 16, 32], pl.FP32]:
        out = self.kernel(x, packed, col, out)
        return out
