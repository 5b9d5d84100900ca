"""Kernels written as `with pl.at(...)` scopes, as PyPTO's getting-started
guide and user guide write them: OutlineIncoreScopes makes each
CORE_GROUP scope an InCore function, OutlineHierarchyScopes each scope at
another level a function at that level.
"""

import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
ROWS = 8
COLS = 16


@pl.program
class AddInScope:
    """The getting-started kernel: out = a + b inside a CORE_GROUP scope
    of the orchestrator, which the host dispatches to every device."""

    @pl.function(type=pl.FunctionType.Orchestration)
    def add_kernel(
        self,
        a: pl.Tensor[[ROWS, COLS], pl.FP32],
        b: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            ta = pl.load(a, [0, 0], [ROWS, COLS])
            tb = pl.load(b, [0, 0], [ROWS, COLS])
            pl.store(pl.add(ta, tb), [0, 0], out)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def add_in_scope(
        self,
        xs: pl.Tensor[[NR, ROWS, COLS], pl.FP32],
        ys: pl.Out[pl.Tensor[[NR, ROWS, COLS], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.add_kernel(xs[r], xs[r], ys[r], device=r)


@pl.program
class TwoStages:
    """Two named CORE_GROUP scopes in a row: the first doubles x into a
    tile the second (a separate kernel) adds one to; a scalar computed
    between them flows into the second."""

    @pl.function(type=pl.FunctionType.Orchestration)
    def stages(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="double", windowize=True):
            t = pl.load(x, [0, 0], [ROWS, COLS])
            y = pl.store(pl.add(t, t), [0, 0], y)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="plus_one"):
            u = pl.load(y, [0, 0], [ROWS, COLS])
            y = pl.store(pl.add(u, 1.0), [0, 0], y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def two_stages(
        self,
        xs: pl.Tensor[[NR, ROWS, COLS], pl.FP32],
        ys: pl.Out[pl.Tensor[[NR, ROWS, COLS], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.stages(xs[r], ys[r], device=r)


@pl.program
class ScopedRing:
    """A ring shift whose kernel is a scope: each rank stages its row in
    its window, a barrier, then it reads the next rank's row."""

    @pl.function(type=pl.FunctionType.Orchestration)
    def shift(
        self,
        x: pl.Tensor[[1, COLS], pl.FP32],
        y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
        win: pld.DistributedTensor[[1, COLS], pl.FP32],
        signal: pld.DistributedTensor[[NR, 1], pl.INT32],
    ) -> pl.Tensor[[1, COLS], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="ring_step"):
            ctx = pld.get_comm_ctx(win)
            me = pld.rank(ctx)
            n = pld.nranks(ctx)
            win = pl.store(pl.load(x, [0, 0], [1, COLS]), [0, 0], win)
            pld.tensor.barrier(signal)
            row = pld.tile.remote_load(win, (me + 1) % n, [0, 0], [1, COLS])
            pl.store(row, [0, 0], y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def scoped_ring(
        self,
        xs: pl.Tensor[[NR, 1, COLS], pl.FP32],
        ys: pl.Out[pl.Tensor[[NR, 1, COLS], pl.FP32]],
    ):
        win_buf = pld.alloc_window_buffer(COLS * 4)
        sig_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        for r in pl.range(pld.world_size()):
            win = pld.window(win_buf, [1, COLS], dtype=pl.FP32)
            signal = pld.window(sig_buf, [pld.world_size(), 1], dtype=pl.INT32)
            self.shift(xs[r], ys[r], win, signal, device=r)


@pl.program
class ChipScope:
    """Scopes at two levels in the host orchestrator, as PyPTO's explicit
    dispatch system test writes them: a CHIP orchestrator scope (outlined
    first, by OutlineHierarchyScopes) holding a CORE_GROUP kernel scope."""

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def chip_scope(
        self,
        a: pl.Tensor[[ROWS, COLS], pl.FP32],
        b: pl.Tensor[[ROWS, COLS], pl.FP32],
        total: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):
            with pl.at(level=pl.Level.CORE_GROUP):
                out = pl.assemble(total, pl.add(a, b), [0, 0])
        return out
