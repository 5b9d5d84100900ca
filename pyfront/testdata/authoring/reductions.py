"""Column reductions (and row_prod) over a tile's valid rows."""

import pypto.language as pl


@pl.program
class Reductions:
    @pl.function(type=pl.FunctionType.InCore)
    def stats(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        sums: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        tree: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        maxes: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        mins: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        prods: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        row_prods: pl.Out[pl.Tensor[[8, 1], pl.FP32]],
    ):
        t = pl.load(x, [0, 0], [8, 16])
        tmp = pl.create_tile([8, 16], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        pl.store(pl.col_sum(t), [0, 0], sums)
        pl.store(pl.col_sum(t, tmp), [0, 0], tree)
        pl.store(pl.col_max(t), [0, 0], maxes)
        pl.store(pl.col_min(t), [0, 0], mins)
        pl.store(pl.col_prod(t), [0, 0], prods)
        pl.store(pl.row_prod(t, tmp), [0, 0], row_prods)

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        sums: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        tree: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        maxes: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        mins: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        prods: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        row_prods: pl.Out[pl.Tensor[[8, 1], pl.FP32]],
    ):
        self.stats(x, sums, tree, maxes, mins, prods, row_prods)
