"""Index folds: the position of each row's and each column's extreme
element, on tiles (with their scratch tiles) and on tensors."""

import pypto.language as pl


@pl.program
class Argmax:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        row_max_at: pl.Out[pl.Tensor[[8, 1], pl.INT32]],
        row_min_at: pl.Out[pl.Tensor[[8, 1], pl.INT32]],
        col_max_at: pl.Out[pl.Tensor[[1, 16], pl.INT32]],
        col_min_at: pl.Out[pl.Tensor[[1, 16], pl.INT32]],
    ):
        t = pl.load(x, [0, 0], [8, 16])
        tmp = pl.create_tile([8, 16], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        pl.store(pl.tile.row_argmax(t, tmp), [0, 0], row_max_at)
        pl.store(pl.row_argmin(t, tmp), [0, 0], row_min_at)
        col_max_at = pl.assemble(col_max_at, pl.col_argmax(x), [0, 0])
        col_min_at = pl.assemble(col_min_at, pl.col_argmin(x), [0, 0])
        return col_max_at, col_min_at

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        row_max_at: pl.Out[pl.Tensor[[8, 1], pl.INT32]],
        row_min_at: pl.Out[pl.Tensor[[8, 1], pl.INT32]],
        col_max_at: pl.Out[pl.Tensor[[1, 16], pl.INT32]],
        col_min_at: pl.Out[pl.Tensor[[1, 16], pl.INT32]],
    ):
        self.kernel(x, row_max_at, row_min_at, col_max_at, col_min_at)
