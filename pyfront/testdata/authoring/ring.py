"""Ring exchanges over a dynamic rank count NR: a hand-rolled signal barrier,
shifts by remote load and remote store behind the built-in barrier, and
one-sided put and get."""

import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
COLS = 32


@pl.jit.incore
def signal_rows(
    y: pl.Out[pl.Tensor[[NR, 1], pl.INT32]],
    sig: pld.DistributedTensor[[NR, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(sig)
    me = pld.rank(ctx)
    n = pld.nranks(ctx)
    # Tell every other rank we arrived, then wait for all of them.
    for other in pl.range(n):
        if other != me:
            pld.system.notify(sig, peer=other, offsets=[me, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    for other in pl.range(n):
        if other != me:
            pld.system.wait(sig, offsets=[other, 0], expected=1, cmp=pld.WaitCmp.Ge)
    for i in pl.range(n):
        v = pl.read(sig, [i, 0])
        pl.write(y, [i, 0], v)
    return y


@pl.jit.incore
def pull_next(
    x: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    buf: pld.DistributedTensor[[1, COLS], pl.FP32],
    sig: pld.DistributedTensor[[NR, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(buf)
    me = pld.rank(ctx)
    n = pld.nranks(ctx)
    buf = pl.store(pl.load(x, [0, 0], [1, COLS]), [0, 0], buf)
    sig = pld.tensor.barrier(sig)
    got = pld.tile.remote_load(buf, peer=(me + 1) % n, offsets=[0, 0], shape=[1, COLS])
    y = pl.store(got, [0, 0], y)
    return y


@pl.jit.incore
def push_next(
    x: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    buf: pld.DistributedTensor[[1, COLS], pl.FP32],
    sig: pld.DistributedTensor[[NR, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(buf)
    me = pld.rank(ctx)
    n = pld.nranks(ctx)
    t = pl.load(x, [0, 0], [1, COLS])
    pld.tile.remote_store(t, buf, peer=(me + 1) % n, offsets=[0, 0])
    sig = pld.tensor.barrier(sig)
    y = pl.store(pl.load(buf, [0, 0], [1, COLS]), [0, 0], y)
    return y


@pl.jit.incore
def put_next(
    x: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    mine: pld.DistributedTensor[[1, COLS], pl.FP32],
    inbox: pld.DistributedTensor[[1, COLS], pl.FP32],
    flag: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(mine)
    me = pld.rank(ctx)
    n = pld.nranks(ctx)
    mine = pl.store(pl.load(x, [0, 0], [1, COLS]), [0, 0], mine)
    dest = (me + 1) % n
    pld.tensor.put(inbox, peer=dest, src=mine, atomic=pld.AtomicType.None_)
    pld.system.notify(flag, peer=dest, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(flag, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    y = pl.store(pl.load(inbox, [0, 0], [1, COLS]), [0, 0], y)
    return y


@pl.jit.incore
def get_next(
    x: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    mine: pld.DistributedTensor[[1, COLS], pl.FP32],
    inbox: pld.DistributedTensor[[1, COLS], pl.FP32],
    flag: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(mine)
    me = pld.rank(ctx)
    n = pld.nranks(ctx)
    mine = pl.store(pl.load(x, [0, 0], [1, COLS]), [0, 0], mine)
    # The rank before us reads from us: tell it our data is ready.
    pld.system.notify(flag, peer=(me + n - 1) % n, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(flag, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    pld.tensor.get(inbox, peer=(me + 1) % n, src=mine)
    y = pl.store(pl.load(inbox, [0, 0], [1, COLS]), [0, 0], y)
    return y


@pl.jit
def orch_rows(y: pl.Out[pl.Tensor[[NR, 1], pl.INT32]], sig: pld.DistributedTensor[[NR, 1], pl.INT32]):
    return signal_rows(y, sig)


@pl.jit
def orch_pull(
    x: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    buf: pld.DistributedTensor[[1, COLS], pl.FP32],
    sig: pld.DistributedTensor[[NR, 1], pl.INT32],
):
    return pull_next(x, y, buf, sig)


@pl.jit
def orch_push(
    x: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    buf: pld.DistributedTensor[[1, COLS], pl.FP32],
    sig: pld.DistributedTensor[[NR, 1], pl.INT32],
):
    return push_next(x, y, buf, sig)


@pl.jit
def orch_put(
    x: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    mine: pld.DistributedTensor[[1, COLS], pl.FP32],
    inbox: pld.DistributedTensor[[1, COLS], pl.FP32],
    flag: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return put_next(x, y, mine, inbox, flag)


@pl.jit
def orch_get(
    x: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    mine: pld.DistributedTensor[[1, COLS], pl.FP32],
    inbox: pld.DistributedTensor[[1, COLS], pl.FP32],
    flag: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return get_next(x, y, mine, inbox, flag)


@pl.jit.host
def arrivals(y: pl.Out[pl.Tensor[[NR, NR, 1], pl.INT32]]):
    sig_buf = pld.alloc_window_buffer(pld.world_size() * 4)
    for r in pl.range(pld.world_size()):
        sig = pld.window(sig_buf, [pld.world_size(), 1], dtype=pl.INT32)
        orch_rows(y[r], sig, device=r)


@pl.jit.host
def shift_pull(x: pl.Tensor[[NR, 1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, COLS], pl.FP32]]):
    buf_mem = pld.alloc_window_buffer([1, COLS], dtype=pl.FP32)
    sig_mem = pld.alloc_window_buffer(pld.world_size() * 4)
    for r in pl.range(pld.world_size()):
        buf = pld.window(buf_mem, [1, COLS], dtype=pl.FP32)
        sig = pld.window(sig_mem, [pld.world_size(), 1], dtype=pl.INT32)
        orch_pull(x[r], y[r], buf, sig, device=r)


@pl.jit.host
def shift_push(x: pl.Tensor[[NR, 1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, COLS], pl.FP32]]):
    buf_mem = pld.alloc_window_buffer([1, COLS], dtype=pl.FP32)
    sig_mem = pld.alloc_window_buffer(pld.world_size() * 4)
    for r in pl.range(pld.world_size()):
        buf = pld.window(buf_mem, [1, COLS], dtype=pl.FP32)
        sig = pld.window(sig_mem, [pld.world_size(), 1], dtype=pl.INT32)
        orch_push(x[r], y[r], buf, sig, device=r)


@pl.jit.host
def ring_put(x: pl.Tensor[[NR, 1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, COLS], pl.FP32]]):
    mine_mem = pld.alloc_window_buffer([1, COLS], dtype=pl.FP32)
    inbox_mem = pld.alloc_window_buffer([1, COLS], dtype=pl.FP32)
    flag_mem = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        mine = pld.window(mine_mem, [1, COLS], dtype=pl.FP32)
        inbox = pld.window(inbox_mem, [1, COLS], dtype=pl.FP32)
        flag = pld.window(flag_mem, [1, 1], dtype=pl.INT32)
        orch_put(x[r], y[r], mine, inbox, flag, device=r)


@pl.jit.host
def ring_get(x: pl.Tensor[[NR, 1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, COLS], pl.FP32]]):
    mine_mem = pld.alloc_window_buffer([1, COLS], dtype=pl.FP32)
    inbox_mem = pld.alloc_window_buffer([1, COLS], dtype=pl.FP32)
    flag_mem = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        mine = pld.window(mine_mem, [1, COLS], dtype=pl.FP32)
        inbox = pld.window(inbox_mem, [1, COLS], dtype=pl.FP32)
        flag = pld.window(flag_mem, [1, 1], dtype=pl.INT32)
        orch_get(x[r], y[r], mine, inbox, flag, device=r)
