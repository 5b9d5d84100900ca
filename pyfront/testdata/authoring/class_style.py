"""Hand-written @pl.program classes in the style of PyPTO's own system tests.

What the style uses beyond the printed form:

- the host indexes its world tensors, ``inputs[r]``, in a class;
- calls leave out kwargs that PyPTO's DSL defaults: ``pld.tensor.put``'s
  ``atomic`` and ``pld.tensor.allreduce``'s ``op`` and ``core_num``;
- a kernel returns a tuple that its orchestrator unpacks, ``a, b = ...``;
- a kernel returns early from inside an ``if``;
- a program factory takes keyword-only parameters after a bare ``*`` and
  picks values with Python ``if``/``elif``/``else`` and ``min(...)``.
"""

import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
SIZE = 32


@pl.program
class RowSum:
    """Every output row is the sum of all the input rows (InCore allreduce)."""

    @pl.function(type=pl.FunctionType.InCore)
    def reduce_rows(
        self,
        inp: pl.Tensor[[1, SIZE], pl.FP32],
        out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        data: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        row = pl.load(inp, [0, 0], [1, SIZE])
        data = pl.store(row, [0, 0], data)
        data = pld.tensor.allreduce(data, signal)  # op=Sum, core_num=1
        total = pl.load(data, [0, 0], [1, SIZE])
        return pl.store(total, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def per_device(
        self,
        inp: pl.Tensor[[1, SIZE], pl.FP32],
        out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        data: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        return self.reduce_rows(inp, out, data, signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def row_sum(
        self,
        inputs: pl.Tensor[[NR, 1, SIZE], pl.FP32],
        outputs: pl.Out[pl.Tensor[[NR, 1, SIZE], pl.FP32]],
    ) -> pl.Tensor[[NR, 1, SIZE], pl.FP32]:
        data_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
        signal_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
        for r in pl.range(pld.world_size()):
            data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
            signal = pld.window(signal_buf, [pld.world_size(), 1], dtype=pl.INT32)
            self.per_device(inputs[r], outputs[r], data, signal, device=r)
        return outputs


@pl.program
class PutToNext:
    """Each rank puts its row into the next rank's inbox (no atomic= given)."""

    @pl.function(type=pl.FunctionType.InCore)
    def put_next(
        self,
        inp: pl.Tensor[[1, SIZE], pl.FP32],
        out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        mine: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
        inbox: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        ctx = pld.get_comm_ctx(mine)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        row = pl.load(inp, [0, 0], [1, SIZE])
        mine = pl.store(row, [0, 0], mine)
        pld.tensor.put(inbox, (me + 1) % n, mine)
        signal = pld.tensor.barrier(signal)
        got = pl.load(inbox, [0, 0], [1, SIZE])
        return pl.store(got, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def per_device(
        self,
        inp: pl.Tensor[[1, SIZE], pl.FP32],
        out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        mine: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
        inbox: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        return self.put_next(inp, out, mine, inbox, signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def put_to_next(
        self,
        inputs: pl.Tensor[[NR, 1, SIZE], pl.FP32],
        outputs: pl.Out[pl.Tensor[[NR, 1, SIZE], pl.FP32]],
    ) -> pl.Tensor[[NR, 1, SIZE], pl.FP32]:
        mine_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
        inbox_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
        signal_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
        for r in pl.range(pld.world_size()):
            mine = pld.window(mine_buf, [1, SIZE], dtype=pl.FP32)
            inbox = pld.window(inbox_buf, [1, SIZE], dtype=pl.FP32)
            signal = pld.window(signal_buf, [pld.world_size(), 1], dtype=pl.INT32)
            self.per_device(inputs[r], outputs[r], mine, inbox, signal, device=r)
        return outputs


@pl.program
class TwiceAndZero:
    """A kernel returns (x + x, x - x); its orchestrator unpacks the pair."""

    @pl.function(type=pl.FunctionType.InCore)
    def both(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        twice: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        zero: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    ) -> tuple[pl.Tensor[[1, SIZE], pl.FP32], pl.Tensor[[1, SIZE], pl.FP32]]:
        t = pl.load(x, [0, 0], [1, SIZE])
        a = pl.store(pl.add(t, t), [0, 0], twice)
        b = pl.store(pl.sub(t, t), [0, 0], zero)
        return a, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def per_device(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        twice: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        zero: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    ) -> tuple[pl.Tensor[[1, SIZE], pl.FP32], pl.Tensor[[1, SIZE], pl.FP32]]:
        a, b = self.both(x, twice, zero)
        return a, b

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def twice_and_zero(
        self,
        xs: pl.Tensor[[NR, 1, SIZE], pl.FP32],
        twices: pl.Out[pl.Tensor[[NR, 1, SIZE], pl.FP32]],
        zeros: pl.Out[pl.Tensor[[NR, 1, SIZE], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.per_device(xs[r], twices[r], zeros[r], device=r)


@pl.program
class RootOnly:
    """Rank 0 copies its row out and returns early; the others return out
    as it is (an early return PTO's structured control flow can take)."""

    @pl.function(type=pl.FunctionType.InCore)
    def copy_on_root(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        rank: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        if rank == 0:
            t = pl.load(x, [0, 0], [1, SIZE])
            return pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def per_device(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        rank: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        return self.copy_on_root(x, y, rank)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def root_only(
        self,
        xs: pl.Tensor[[NR, 1, SIZE], pl.FP32],
        ys: pl.Out[pl.Tensor[[NR, 1, SIZE], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.per_device(xs[r], ys[r], r, device=r)


def build_scaled(nr: int, *, factor: int = 2):
    """A factory with a keyword-only parameter: every row times factor,
    which a Python-level if caps at 4 (and min(...) computes)."""
    if factor > 4:
        scale = min(factor, 4, 9)
    elif factor < 0:
        scale = 0
    else:
        scale = factor

    @pl.program
    class Scaled:
        @pl.function(type=pl.FunctionType.InCore)
        def scale(
            self,
            x: pl.Tensor[[1, SIZE], pl.FP32],
            y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        ) -> pl.Tensor[[1, SIZE], pl.FP32]:
            t = pl.load(x, [0, 0], [1, SIZE])
            return pl.store(pl.mul(t, scale * 1.0), [0, 0], y)

        @pl.function(type=pl.FunctionType.Orchestration)
        def per_device(
            self,
            x: pl.Tensor[[1, SIZE], pl.FP32],
            y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        ) -> pl.Tensor[[1, SIZE], pl.FP32]:
            return self.scale(x, y)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def scaled(
            self,
            xs: pl.Tensor[[nr, 1, SIZE], pl.FP32],
            ys: pl.Out[pl.Tensor[[nr, 1, SIZE], pl.FP32]],
        ):
            for r in pl.range(nr):
                self.per_device(xs[r], ys[r], device=r)

    return Scaled
