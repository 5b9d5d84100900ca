"""An on-core array in a kernel: a histogram of the values in a row,
counted in a pl.array and written out. The array is updated in loops
and read back; its kernel form is one stack-local array written in
place."""

import pypto.language as pl


@pl.program
class Histogram:
    @pl.function(type=pl.FunctionType.InCore)
    def count(
        self,
        vals: pl.Tensor[[1, 32], pl.INT32],
        hist: pl.Out[pl.Tensor[[8, 1], pl.INT32]],
    ) -> pl.Tensor[[8, 1], pl.INT32]:
        counts = pl.array.create(8, pl.INT32)
        for b in pl.range(8):
            counts[b] = 0
        for i in pl.range(32):
            v = pl.read(vals, [0, i])
            counts[v] = counts[v] + 1
        for b in pl.range(8):
            pl.write(hist, [b, 0], counts[b])
        return hist

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        vals: pl.Tensor[[1, 32], pl.INT32],
        hist: pl.Out[pl.Tensor[[8, 1], pl.INT32]],
    ) -> pl.Tensor[[8, 1], pl.INT32]:
        hist = self.count(vals, hist)
        return hist
