"""Gathers into Mat tiles (cube operands) by GM index tensors: whole rows,
with a narrower valid shape, and single elements staged through a GM
scratch tensor; an identity matmul brings each out through Acc."""

import pypto.language as pl

ROWS = 64
C = 16


@pl.program
class MatGather:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        table: pl.Tensor[[ROWS, C], pl.FP32],
        picks: pl.Tensor[[1, 16], pl.INT32],
        flat: pl.Tensor[[ROWS * C], pl.FP32],
        where: pl.Tensor[[16, C], pl.INT32],
        scratch: pl.Tensor[[16 * C], pl.FP32],
        eye: pl.Tensor[[16, 16], pl.FP32],
        by_row: pl.Out[pl.Tensor[[12, C], pl.FP32]],
        by_elem: pl.Out[pl.Tensor[[16, C], pl.FP32]],
    ) -> tuple[pl.Tensor[[12, C], pl.FP32], pl.Tensor[[16, C], pl.FP32]]:
        rows: pl.Tile[[16, C], pl.FP32] = pl.tile.mgather(
            table, picks, coalesce="row", gather_oob="wrap", target_memory=pl.Mem.Mat, valid_shape=[12, C]
        )
        elems: pl.Tile[[16, C], pl.FP32] = pl.tile.mgather(
            flat, where, coalesce="elem", target_memory=pl.Mem.Mat, scratch=scratch
        )
        eye_rows = pl.load(eye, [0, 0], [16, 16], valid_shape=[12, 12], target_memory=pl.Mem.Mat)
        eye_all = pl.load(eye, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        by_row = pl.store(pl.matmul(eye_rows, rows), [0, 0], by_row)
        by_elem = pl.store(pl.matmul(eye_all, elems), [0, 0], by_elem)
        return by_row, by_elem

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        table: pl.Tensor[[ROWS, C], pl.FP32],
        picks: pl.Tensor[[1, 16], pl.INT32],
        flat: pl.Tensor[[ROWS * C], pl.FP32],
        where: pl.Tensor[[16, C], pl.INT32],
        scratch: pl.Tensor[[16 * C], pl.FP32],
        eye: pl.Tensor[[16, 16], pl.FP32],
        by_row: pl.Out[pl.Tensor[[12, C], pl.FP32]],
        by_elem: pl.Out[pl.Tensor[[16, C], pl.FP32]],
    ) -> tuple[pl.Tensor[[12, C], pl.FP32], pl.Tensor[[16, C], pl.FP32]]:
        by_row, by_elem = self.kernel(table, picks, flat, where, scratch, eye, by_row, by_elem)
        return by_row, by_elem
