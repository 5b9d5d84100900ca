"""A slice that reaches past the end of its tensor, as upstream's paged
attention cuts a fixed number of block indices out of the block table near
its end: the view is made without a check, and only the indices that exist
are read. `reach` reads one more than exist, past the table's end, which
is an error naming the slice."""

import pypto.language as pl

N = 8
TAKE = 4


@pl.program
class SliceOverhang:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        table: pl.Tensor[[N], pl.INT32],
        start: pl.Tensor[[1], pl.INT32],
        reach: pl.Tensor[[1], pl.INT32],
        out: pl.Out[pl.Tensor[[TAKE], pl.INT32]],
    ) -> pl.Tensor[[TAKE], pl.INT32]:
        s: pl.Scalar[pl.INDEX] = pl.cast(pl.tensor.read(start, [0]), pl.INDEX)
        k: pl.Scalar[pl.INDEX] = pl.cast(pl.tensor.read(reach, [0]), pl.INDEX)
        picked = pl.slice(table, [TAKE], [s])
        for i in pl.range(k):
            v: pl.Scalar[pl.INT32] = pl.tensor.read(picked, [i])
            pl.tensor.write(out, [i], v)
        return out
