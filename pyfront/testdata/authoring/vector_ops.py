"""Broadcast, rsqrt, fmod and integer-sequence ops, on tiles and on tensors."""

import pypto.language as pl


@pl.program
class TileVectorOps:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        col: pl.Tensor[[8, 1], pl.FP32],
        row: pl.Tensor[[1, 16], pl.FP32],
        y: pl.Tensor[[8, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[8, 8, 16], pl.FP32]],
        seq: pl.Out[pl.Tensor[[2, 16], pl.INT32]],
    ):
        t = pl.load(x, [0, 0], [8, 16])
        c = pl.load(col, [0, 0], [8, 1])
        r = pl.load(row, [0, 0], [1, 16])
        u = pl.load(y, [0, 0], [8, 16])
        tmp = pl.create_tile([8, 16], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        pl.store(pl.row_expand_max(t, c), [0, 0, 0], out)
        pl.store(pl.tile.row_expand_min(t, c), [1, 0, 0], out)
        pl.store(pl.row_expand_expdif(t, c), [2, 0, 0], out)
        pl.store(pl.col_expand_max(t, r), [3, 0, 0], out)
        pl.store(pl.col_expand_min(t, r), [4, 0, 0], out)
        pl.store(pl.tile.col_expand_expdif(t, r), [5, 0, 0], out)
        pl.store(pl.tile.rsqrt(u, tmp), [6, 0, 0], out)
        pl.store(pl.fmod(t, u), [7, 0, 0], out)
        up = pl.tile.ci(3, [1, 16], dtype=pl.INT32)
        down = pl.tile.arange(15, [1, 16], dtype=pl.INT32, descending=True)
        pl.store(up, [0, 0], seq)
        pl.store(down, [1, 0], seq)

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        col: pl.Tensor[[8, 1], pl.FP32],
        row: pl.Tensor[[1, 16], pl.FP32],
        y: pl.Tensor[[8, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[8, 8, 16], pl.FP32]],
        seq: pl.Out[pl.Tensor[[2, 16], pl.INT32]],
    ):
        self.kernel(x, col, row, y, out, seq)


@pl.program
class TensorVectorOps:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        y: pl.Tensor[[8, 16], pl.FP32],
        sums: pl.Out[pl.Tensor[[8, 1], pl.FP32]],
        maxes: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        soft: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        centred: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        inv: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        rem: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        seq: pl.Out[pl.Tensor[[1, 16], pl.INT32]],
        sums_row: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
    ):
        s = pl.row_sum(x)
        sums_row = pl.assemble(sums_row, pl.reshape(s, [1, 8]), [0, 0])
        m = pl.col_max(x)
        sums = pl.assemble(sums, s, [0, 0])
        maxes = pl.assemble(maxes, m, [0, 0])
        soft = pl.assemble(soft, pl.row_expand_expdif(x, pl.row_max(x)), [0, 0])
        centred = pl.assemble(centred, pl.col_expand_sub(x, m), [0, 0])
        inv = pl.assemble(inv, pl.rsqrt(y, high_precision=True), [0, 0])
        rem = pl.assemble(rem, pl.fmods(x, 0.75), [0, 0])
        seq = pl.assemble(seq, pl.arange(5, [1, 16], dtype=pl.INT32, descending=True), [0, 0])
        return sums, maxes, soft, centred, inv, rem, seq, sums_row

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        y: pl.Tensor[[8, 16], pl.FP32],
        sums: pl.Out[pl.Tensor[[8, 1], pl.FP32]],
        maxes: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        soft: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        centred: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        inv: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        rem: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        seq: pl.Out[pl.Tensor[[1, 16], pl.INT32]],
        sums_row: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
    ):
        self.kernel(x, y, sums, maxes, soft, centred, inv, rem, seq, sums_row)
