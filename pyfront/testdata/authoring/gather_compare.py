"""The compare form of a gather: pl.gather(src, kvalue=k, cmp_mode=...,
out_cols=n) scans each row of src for the columns whose element compares
true with k, and gives the first n of them (dst) and how many matched
(cdst, one count per row in a [1, rows] row)."""

import pypto.language as pl

ROWS = 8
COLS = 32
OUT = 4


@pl.program
class Thresholds:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        src: pl.Tensor[[ROWS, COLS], pl.FP32],
        kv_buf: pl.Tensor[[1], pl.FP32],
        out_dst: pl.Out[pl.Tensor[[ROWS, OUT], pl.INT32]],
        out_cdst: pl.Out[pl.Tensor[[1, ROWS], pl.INT32]],
    ) -> tuple[pl.Tensor[[ROWS, OUT], pl.INT32], pl.Tensor[[1, ROWS], pl.INT32]]:
        with pl.at(level=pl.Level.CORE_GROUP):
            kvalue: pl.Scalar[pl.FP32] = pl.tensor.read(kv_buf, [0])
            dst, cdst = pl.gather(src, kvalue=kvalue, cmp_mode="ge", out_cols=OUT)
            out_dst = pl.assemble(out_dst, dst, [0, 0])
            out_cdst = pl.assemble(out_cdst, cdst, [0, 0])
        return out_dst, out_cdst
