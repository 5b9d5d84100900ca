"""Manual scopes with a missing edge. Inside pl.manual_scope() the
runtime infers no edges, so each consumer here may run beside the
producer it reads from: the simulator computes the right values (it runs
a rank's tasks in order) and reports the race."""

import pypto.language as pl

ROWS = 64
COLS = 32
TR = 16


@pl.program
class MissingEdge:
    @pl.function(type=pl.FunctionType.InCore)
    def double(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        scratch: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        row: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t: pl.Tile[[TR, COLS], pl.FP32] = pl.load(x, [row, 0], [TR, COLS])
        return pl.store(pl.add(t, t), [row, 0], scratch)

    @pl.function(type=pl.FunctionType.InCore)
    def plus_one(
        self,
        scratch: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        row: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t: pl.Tile[[TR, COLS], pl.FP32] = pl.load(scratch, [row, 0], [TR, COLS])
        return pl.store(pl.add(t, 1.0), [row, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        scratch: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.manual_scope():
            for b in pl.parallel(ROWS // TR):
                scratch, first = pl.submit(self.double, x, scratch, b * TR)
                out, _ = pl.submit(self.plus_one, scratch, out, b * TR)
        return out


@pl.program
class RegionsWithoutDeps:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        scratch: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.manual_scope():
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="produce"):
                t: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(x, [0, 0], [ROWS, COLS])
                scratch = pl.store(pl.add(t, t), [0, 0], scratch)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="consume"):
                u: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(scratch, [0, 0], [ROWS, COLS])
                out = pl.store(pl.add(u, 1.0), [0, 0], out)
        return out
