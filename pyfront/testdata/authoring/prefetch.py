"""Asynchronous GM->L2 prefetch: a kernel warms L2 with a row it reads
next, waits for the prefetch to land, then computes from it. The prefetch
is a cache hint: the result is what the kernel computes without it."""

import pypto.language as pl

COLS = 512
ROWS = 4


@pl.program
class WarmThenScale:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        row: pl.Tensor[[1, COLS], pl.FP32],
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        ctx = pl.prefetch.make_context()
        evt = pl.prefetch.async_prefetch(row, ctx)
        session = pl.prefetch.session(ctx)
        # Unrelated work overlaps the prefetch.
        t = pl.load(x, [0, 0], [ROWS, COLS])
        done: pl.Scalar[pl.BOOL] = pl.prefetch.wait(evt, session)
        r = pl.load(row, [0, 0], [1, COLS])
        out = pl.store(pl.col_expand_mul(t, r), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        row: pl.Tensor[[1, COLS], pl.FP32],
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        out = self.scale(row, x, out)
        return out


@pl.program
class OtherSession:
    """Waits for an event in the session of a context that did not start it."""

    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        self,
        a: pl.Tensor[[COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[COLS], pl.FP32]],
    ) -> pl.Tensor[[COLS], pl.FP32]:
        first = pl.prefetch.make_context()
        second = pl.prefetch.make_context()
        evt = pl.prefetch.async_prefetch(a, first)
        pl.prefetch.wait(evt, pl.prefetch.session(second))
        out = pl.store(pl.load(a, [0], [COLS]), [0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        a: pl.Tensor[[COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[COLS], pl.FP32]],
    ) -> pl.Tensor[[COLS], pl.FP32]:
        out = self.copy(a, out)
        return out
