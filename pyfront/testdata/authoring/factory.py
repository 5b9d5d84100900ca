"""A factory: build_shift(nr, use_builtin) returns a @pl.program class whose
shapes use the closure constant nr and whose barrier is the built-in one or
a hand-rolled notify/wait, picked by a Python-level if."""

import pypto.language as pl
import pypto.language.distributed as pld

COLS = 16


def build_shift(nr, use_builtin=True):
    rows = nr

    @pl.program
    class Shift:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            x: pl.Tensor[[1, COLS], pl.FP32],
            y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
            buf: pld.DistributedTensor[[1, COLS], pl.FP32],
            sig: pld.DistributedTensor[[rows, 1], pl.INT32],
        ):
            ctx = pld.get_comm_ctx(buf)
            me = pld.rank(ctx)
            buf = pl.store(pl.load(x, [0, 0], [1, COLS]), [0, 0], buf)
            if use_builtin:
                sig = pld.tensor.barrier(sig)
            else:
                for other in pl.range(nr):
                    if other != me:
                        pld.system.notify(sig, peer=other, offsets=[me, 0], value=1, op=pld.NotifyOp.AtomicAdd)
                for other in pl.range(nr):
                    if other != me:
                        pld.system.wait(sig, offsets=[other, 0], expected=1, cmp=pld.WaitCmp.Ge)
            got = pld.tile.remote_load(buf, peer=(me + 1) % nr, offsets=[0, 0], shape=[1, COLS])
            y = pl.store(got, [0, 0], y)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def orch(
            self,
            x: pl.Tensor[[1, COLS], pl.FP32],
            y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
            buf: pld.DistributedTensor[[1, COLS], pl.FP32],
            sig: pld.DistributedTensor[[rows, 1], pl.INT32],
        ):
            return self.kernel(x, y, buf, sig)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[nr, 1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[nr, 1, COLS], pl.FP32]]):
            buf_mem = pld.alloc_window_buffer([1, COLS], dtype=pl.FP32)
            sig_mem = pld.alloc_window_buffer([rows, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                buf = pld.window(buf_mem, [1, COLS], dtype=pl.FP32)
                sig = pld.window(sig_mem, [rows, 1], dtype=pl.INT32)
                self.orch(x[r], y[r], buf, sig, device=r)

    return Shift
