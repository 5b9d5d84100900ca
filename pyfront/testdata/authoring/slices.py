"""Regions of tensors, read and written, in the style of PyPTO's system tests.

- ``pl.slice(x, shape, offset)`` and ``pl.assemble(y, part, offset)``;
- numpy-style subscripts: ``x[HALF:N, 0:W]`` reads a region, ``x[:HALF]``
  leaves out a bound and the trailing dimension;
- ``out[0:HALF, 0:W] = part`` writes one (upstream's parser makes it
  ``out = pl.tensor.assemble(out, part, [0, 0])``);
- the same into a window buffer, which a neighbour then reads;
- and at the orchestration level, outside any kernel.
"""

import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
N = 8
HALF = 4
W = 16


@pl.program
class RowsPlusOne:
    """Row by row: every element plus one."""

    @pl.function(type=pl.FunctionType.InCore)
    def add_one(
        self,
        x: pl.Tensor[[N, W], pl.FP32],
        y: pl.Out[pl.Tensor[[N, W], pl.FP32]],
    ) -> pl.Tensor[[N, W], pl.FP32]:
        for row in pl.range(N):
            x_row = pl.slice(x, [1, W], [row, 0])
            y_row = pl.add(x_row, 1.0)
            y = pl.assemble(y, y_row, [row, 0])
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def per_device(
        self,
        x: pl.Tensor[[N, W], pl.FP32],
        y: pl.Out[pl.Tensor[[N, W], pl.FP32]],
    ) -> pl.Tensor[[N, W], pl.FP32]:
        return self.add_one(x, y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def rows_plus_one(
        self,
        xs: pl.Tensor[[NR, N, W], pl.FP32],
        ys: pl.Out[pl.Tensor[[NR, N, W], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.per_device(xs[r], ys[r], device=r)


@pl.program
class HalfSwap:
    """The two halves of the rows change places."""

    @pl.function(type=pl.FunctionType.InCore)
    def swap(
        self,
        x: pl.Tensor[[N, W], pl.FP32],
        out: pl.Out[pl.Tensor[[N, W], pl.FP32]],
    ) -> pl.Tensor[[N, W], pl.FP32]:
        out[0:HALF, 0:W] = x[HALF:N, 0:W]
        out[HALF:N] = x[:HALF]
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def per_device(
        self,
        x: pl.Tensor[[N, W], pl.FP32],
        out: pl.Out[pl.Tensor[[N, W], pl.FP32]],
    ) -> pl.Tensor[[N, W], pl.FP32]:
        return self.swap(x, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def half_swap(
        self,
        xs: pl.Tensor[[NR, N, W], pl.FP32],
        outs: pl.Out[pl.Tensor[[NR, N, W], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.per_device(xs[r], outs[r], device=r)


@pl.program
class NeighbourHalf:
    """Each rank publishes its upper half in its window; its output's upper
    half is the next rank's, its lower half its own lower half."""

    @pl.function(type=pl.FunctionType.InCore)
    def exchange(
        self,
        x: pl.Tensor[[N, W], pl.FP32],
        out: pl.Out[pl.Tensor[[N, W], pl.FP32]],
        win: pl.InOut[pld.DistributedTensor[[HALF, W], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ) -> pl.Tensor[[N, W], pl.FP32]:
        ctx = pld.get_comm_ctx(win)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        win[0:HALF, 0:W] = x[HALF:N, 0:W]
        pld.tensor.barrier(signal)
        theirs = pld.tile.remote_load(win, (me + 1) % n, [0, 0], [HALF, W])
        out = pl.store(theirs, [HALF, 0], out)
        out[0:HALF] = x[0:HALF]
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def per_device(
        self,
        x: pl.Tensor[[N, W], pl.FP32],
        out: pl.Out[pl.Tensor[[N, W], pl.FP32]],
        win: pld.DistributedTensor[[HALF, W], pl.FP32],
        signal: pld.DistributedTensor[[NR, 1], pl.INT32],
    ) -> pl.Tensor[[N, W], pl.FP32]:
        return self.exchange(x, out, win, signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def neighbour_half(
        self,
        xs: pl.Tensor[[NR, N, W], pl.FP32],
        outs: pl.Out[pl.Tensor[[NR, N, W], pl.FP32]],
    ):
        win_buf = pld.alloc_window_buffer(HALF * W * 4)
        sig_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        for r in pl.range(pld.world_size()):
            win = pld.window(win_buf, [HALF, W], dtype=pl.FP32)
            signal = pld.window(sig_buf, [pld.world_size(), 1], dtype=pl.INT32)
            self.per_device(xs[r], outs[r], win, signal, device=r)


@pl.program
class OrchestratedHalves:
    """The orchestrator overwrites the swapped output's upper half with the
    input's lower half: both halves end up the lower one."""

    @pl.function(type=pl.FunctionType.InCore)
    def swap(
        self,
        x: pl.Tensor[[N, W], pl.FP32],
        out: pl.Out[pl.Tensor[[N, W], pl.FP32]],
    ) -> pl.Tensor[[N, W], pl.FP32]:
        out[0:HALF, 0:W] = x[HALF:N, 0:W]
        out[HALF:N, 0:W] = x[0:HALF, 0:W]
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def per_device(
        self,
        x: pl.Tensor[[N, W], pl.FP32],
        out: pl.Out[pl.Tensor[[N, W], pl.FP32]],
    ) -> pl.Tensor[[N, W], pl.FP32]:
        out = self.swap(x, out)
        out[0:HALF, 0:W] = x[0:HALF, 0:W]
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def orchestrated_halves(
        self,
        xs: pl.Tensor[[NR, N, W], pl.FP32],
        outs: pl.Out[pl.Tensor[[NR, N, W], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.per_device(xs[r], outs[r], device=r)


@pl.program
class TensorLevel:
    """A tensor-level kernel that returns what it computes: its conversion
    to tiles gives it an Out parameter (ret0__out) to store the result in,
    and its caller a pl.tensor.create to pass there."""

    @pl.function(type=pl.FunctionType.InCore)
    def twice_plus_one(
        self,
        x: pl.Tensor[[N, W], pl.FP32],
    ) -> pl.Tensor[[N, W], pl.FP32]:
        y = pl.add(x, x)
        return pl.add(y, 1.0)

    @pl.function(type=pl.FunctionType.Orchestration)
    def per_device(
        self,
        x: pl.Tensor[[N, W], pl.FP32],
        out: pl.Out[pl.Tensor[[N, W], pl.FP32]],
    ) -> pl.Tensor[[N, W], pl.FP32]:
        t = self.twice_plus_one(x)
        out[0:N, 0:W] = t
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def tensor_level(
        self,
        xs: pl.Tensor[[NR, N, W], pl.FP32],
        outs: pl.Out[pl.Tensor[[NR, N, W], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.per_device(xs[r], outs[r], device=r)
