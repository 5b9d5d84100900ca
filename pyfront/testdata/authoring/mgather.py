"""pl.tile.mgather: a gather-load from a GM table into a fresh Vec tile by
an INT32 index tile. coalesce="elem" reads the table's elements at flat
indices; coalesce="row" reads whole rows. gather_oob says what an index
outside the table reads: clamp to the nearest, wrap around, or zero.
"""

import pypto.language as pl


@pl.program
class Mgather:
    @pl.function(type=pl.FunctionType.InCore)
    def lookups(
        self,
        table: pl.Tensor[[32, 16], pl.FP32],
        flat: pl.Tensor[[4, 16], pl.INT32],
        flat_oob: pl.Tensor[[4, 16], pl.INT32],
        rows: pl.Tensor[[1, 8], pl.INT32],
        rows_oob: pl.Tensor[[1, 8], pl.INT32],
        elems: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
        clamped: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
        picked: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        wrapped: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        zeroed: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ):
        fi = pl.load(flat, [0, 0], [4, 16])
        fo = pl.load(flat_oob, [0, 0], [4, 16])
        ri = pl.load(rows, [0, 0], [1, 8])
        ro = pl.load(rows_oob, [0, 0], [1, 8])
        pl.store(pl.tile.mgather(table, fi, coalesce="elem"), [0, 0], elems)
        pl.store(pl.tile.mgather(table, fo, coalesce="elem", gather_oob="clamp"), [0, 0], clamped)
        pl.store(pl.tile.mgather(table, ri), [0, 0], picked)
        pl.store(pl.tile.mgather(table, ro, coalesce="row", gather_oob="wrap"), [0, 0], wrapped)
        pl.store(pl.tile.mgather(table, ro, gather_oob="zero"), [0, 0], zeroed)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        table: pl.Tensor[[32, 16], pl.FP32],
        flat: pl.Tensor[[4, 16], pl.INT32],
        flat_oob: pl.Tensor[[4, 16], pl.INT32],
        rows: pl.Tensor[[1, 8], pl.INT32],
        rows_oob: pl.Tensor[[1, 8], pl.INT32],
        elems: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
        clamped: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
        picked: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        wrapped: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        zeroed: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ):
        self.lookups(table, flat, flat_oob, rows, rows_oob, elems, clamped, picked, wrapped, zeroed)
