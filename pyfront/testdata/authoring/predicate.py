"""Dispatch predicates: a launch with predicate=(t[i] > 0) runs only when
the element, read when the launch is due, compares true; otherwise the
task retires without running, its outputs stay as they were, and the
launches that depend on it still run.

- Experts: a router kernel writes each expert's row count; one SPMD
  launch per expert (pl.spmd_submit, a block per row tile) scales its rows,
  predicated on the expert having rows, and a final kernel adds one to
  every row, after all of them.
- ScopeForm: the same chain written with `with pl.spmd(..., deps=,
  predicate=) as tid:` scopes: a producer fills x, a predicated clobber
  overwrites it when gate[0, 0] > 0, and a consumer copies x to out."""

import pypto.language as pl

E = 4
ROWS = 16
TR = 4
COLS = 16


@pl.program
class Experts:
    @pl.function(type=pl.FunctionType.InCore)
    def route(
        self,
        sizes: pl.Tensor[[E, 1], pl.INT32],
        counts: pl.Out[pl.Tensor[[E, 1], pl.INT32]],
    ) -> pl.Tensor[[E, 1], pl.INT32]:
        t = pl.load(sizes, [0, 0], [E, 1])
        return pl.store(t, [0, 0], counts)

    @pl.function(type=pl.FunctionType.InCore)
    def expert(
        self,
        x: pl.Tensor[[E * ROWS, COLS], pl.FP32],
        y: pl.Out[pl.Tensor[[E * ROWS, COLS], pl.FP32]],
        e: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[E * ROWS, COLS], pl.FP32]:
        b = pl.tile.get_block_idx()
        for h in pl.range(2):
            row = e * ROWS + b * TR + h * (TR // 2)
            t = pl.load(x, [row, 0], [TR // 2, COLS])
            y = pl.store(pl.mul(t, 3.0), [row, 0], y)
        return y

    @pl.function(type=pl.FunctionType.InCore)
    def finish(
        self,
        y: pl.Tensor[[E * ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[E * ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[E * ROWS, COLS], pl.FP32]:
        t = pl.load(y, [0, 0], [E * ROWS, COLS])
        return pl.store(pl.add(t, 1.0), [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        sizes: pl.Tensor[[E, 1], pl.INT32],
        x: pl.Tensor[[E * ROWS, COLS], pl.FP32],
        counts: pl.Out[pl.Tensor[[E, 1], pl.INT32]],
        y: pl.InOut[pl.Tensor[[E * ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[E * ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[E * ROWS, COLS], pl.FP32]:
        with pl.manual_scope():
            counts, routed = pl.submit(self.route, sizes, counts)
            done = pl.array.create(E, pl.TASK_ID)
            for e in pl.range(E):
                y, tid = pl.spmd_submit(self.expert, x, y, e, core_num=ROWS // TR, deps=[routed], predicate=(counts[e, 0] > 0))
                done[e] = tid
            out, _ = pl.submit(self.finish, y, out, deps=[done])
        return out


@pl.program
class ScopeForm:
    @pl.function(type=pl.FunctionType.InCore)
    def producer(self, x: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t = pl.tile.full([ROWS, COLS], dtype=pl.FP32, value=42.0)
        return pl.store(t, [0, 0], x)

    @pl.function(type=pl.FunctionType.InCore)
    def clobber(self, x: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t = pl.tile.full([ROWS, COLS], dtype=pl.FP32, value=999.0)
        return pl.store(t, [0, 0], x)

    @pl.function(type=pl.FunctionType.InCore)
    def consumer(
        self, x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t = pl.load(x, [0, 0], [ROWS, COLS])
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        gate: pl.Tensor[[ROWS, COLS], pl.INT32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.spmd(1) as made:
            x = self.producer(x)
        with pl.spmd(1, deps=[made], predicate=(gate[0, 0] > 0)) as clobbered:
            x = self.clobber(x)
        with pl.spmd(1, deps=[clobbered]):
            out = self.consumer(x, out)
        return out
