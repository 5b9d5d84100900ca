"""Factories as upstream's model examples write them: a kernel factory
returns a @pl.function; the program factory computes constants from its
parameters, calls the kernel factory, defines an orchestration function of
its own, and a @pl.program class whose host calls it by name."""

import pypto.language as pl
import pypto.language.distributed as pld

COLS = 16


def make_shift(nr: int, cols: int):
    """Ring shift: rank r's row becomes rank r+1's."""

    @pl.function(type=pl.FunctionType.InCore)
    def shift_kernel(
        x: pl.Tensor[[1, cols], pl.FP32],
        y: pl.Out[pl.Tensor[[1, cols], pl.FP32]],
        buf: pld.DistributedTensor[[1, cols], pl.FP32],
        sig: pld.DistributedTensor[[nr, 1], pl.INT32],
    ):
        ctx = pld.get_comm_ctx(buf)
        me = pld.rank(ctx)
        buf = pl.store(pl.load(x, [0, 0], [1, cols]), [0, 0], buf)
        sig = pld.tensor.barrier(sig)
        got = pld.tile.remote_load(buf, peer=(me + 1) % nr, offsets=[0, 0], shape=[1, cols])
        y = pl.store(got, [0, 0], y)
        return y

    return shift_kernel


def build_shift_program(nr, cols=COLS):
    rows = nr * 1
    _shift = make_shift(rows, cols=cols)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        x: pl.Tensor[[1, cols], pl.FP32],
        y: pl.Out[pl.Tensor[[1, cols], pl.FP32]],
        buf: pld.DistributedTensor[[1, cols], pl.FP32],
        sig: pld.DistributedTensor[[rows, 1], pl.INT32],
    ):
        return _shift(x, y, buf, sig)

    @pl.program
    class ShiftProgram:
        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[nr, 1, cols], pl.FP32], y: pl.Out[pl.Tensor[[nr, 1, cols], pl.FP32]]):
            buf_mem = pld.alloc_window_buffer([1, cols], dtype=pl.FP32)
            sig_mem = pld.alloc_window_buffer([rows, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                buf = pld.window(buf_mem, [1, cols], dtype=pl.FP32)
                sig = pld.window(sig_mem, [rows, 1], dtype=pl.INT32)
                orch(x[r], y[r], buf, sig, device=r)

    return ShiftProgram
