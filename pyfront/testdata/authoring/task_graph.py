"""Task graphs: every launch is a task. `with pl.at(...) as tid` and
`out, tid = pl.submit(self.f, ...)` give a launch's task id; deps=[...]
declares edges the runtime cannot infer; inside pl.manual_scope() the
declared edges are all there is. Arrays of task ids collect a phase.
Each program computes out = 2 * x + 1 tile by tile, whatever the order
its edges allow."""

import pypto.language as pl

ROWS = 64
COLS = 32
TR = 16
TC = 16


@pl.program
class Pipeline:
    @pl.function(type=pl.FunctionType.InCore)
    def double(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        scratch: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        row: pl.Scalar[pl.INDEX],
        col: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t: pl.Tile[[TR, TC], pl.FP32] = pl.load(x, [row, col], [TR, TC])
        return pl.store(pl.add(t, t), [row, col], scratch)

    @pl.function(type=pl.FunctionType.InCore)
    def plus_one(
        self,
        scratch: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        row: pl.Scalar[pl.INDEX],
        col: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t: pl.Tile[[TR, TC], pl.FP32] = pl.load(scratch, [row, col], [TR, TC])
        return pl.store(pl.add(t, 1.0), [row, col], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        scratch: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.manual_scope():
            for i in pl.range(ROWS // TR):
                for j in pl.parallel(COLS // TC):
                    scratch, first = pl.submit(self.double, x, scratch, i * TR, j * TC)
                    out, _ = pl.submit(self.plus_one, scratch, out, i * TR, j * TC, deps=[first])
        return out


@pl.program
class PhaseFence:
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
            tids = pl.array.create(ROWS // TR, pl.TASK_ID)
            for b in pl.parallel(ROWS // TR):
                scratch, tid = pl.submit(self.double, x, scratch, b * TR)
                tids[b] = tid
            fence = pl.system.task_dummy(deps=[tids])
            for b in pl.parallel(ROWS // TR):
                out, _ = pl.submit(self.plus_one, scratch, out, b * TR, deps=[fence])
        return out


@pl.program
class Chain:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.manual_scope():
            prev = None
            for step in pl.range(ROWS // TR):
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="stripe", deps=[prev]) as prev:
                    t: pl.Tile[[TR, COLS], pl.FP32] = pl.load(x, [step * TR, 0], [TR, COLS])
                    d: pl.Tile[[TR, COLS], pl.FP32] = pl.add(t, t)
                    out = pl.store(pl.add(d, 1.0), [step * TR, 0], out)
        return out


@pl.jit
def declared_edge(x: pl.Tensor[[ROWS, COLS], pl.FP32], scratch: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage1") as first:
        scratch[:] = pl.add(x, x)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage2", deps=[first]):
        out[:] = pl.add(scratch, 1.0)
    return scratch, out


@pl.jit
def early_resolve(x: pl.Tensor[[ROWS, COLS], pl.FP32], scratch: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage1", allow_early_resolve=True):
        scratch[:] = pl.add(x, x)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage2"):
        out[:] = pl.add(scratch, 1.0)
    return scratch, out


@pl.program
class SubmitDumps:
    """A launch marking two of its arguments for the runtime's selective
    tensor dump (dumps=[...]); the next launch marks none."""

    @pl.function(type=pl.FunctionType.InCore)
    def stage1(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        scratch: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(x, [0, 0], [ROWS, COLS])
        return pl.store(pl.add(t, t), [0, 0], scratch)

    @pl.function(type=pl.FunctionType.InCore)
    def stage2(
        self,
        scratch: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(scratch, [0, 0], [ROWS, COLS])
        return pl.store(pl.add(t, 1.0), [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        scratch: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.manual_scope():
            scratch, first = pl.submit(self.stage1, x, scratch, dumps=[x, scratch])
            out, _ = pl.submit(self.stage2, scratch, out, deps=[first])
        return out
