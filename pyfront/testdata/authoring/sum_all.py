"""A hand-written sum over every rank, in the authoring form of PyPTO's
distributed user guide: window sizes spelled with ``pl.<DTYPE>.get_byte()``,
keyword arguments on notify, wait and remote_load, and an accumulator
rebound inside a loop.

One host entry, ``sum_all``: every y[r] is the sum of all the x rows.
"""

import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
LEN = 128


@pl.jit.incore
def gather_sum(
    x: pl.Tensor[[1, LEN], pl.FP32],
    y: pl.Out[pl.Tensor[[1, LEN], pl.FP32]],
    share: pl.InOut[pld.DistributedTensor[[1, LEN], pl.FP32]],
    ready: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
) -> pl.Tensor[[1, LEN], pl.FP32]:
    ctx = pld.get_comm_ctx(share)
    me = pld.rank(ctx)
    n = pld.nranks(ctx)

    # Publish this rank's row in its window, then tell everyone.
    mine = pl.load(x, [0, 0], [1, LEN])
    share = pl.store(mine, [0, 0], share)
    for other in pl.range(n):
        if other != me:
            pld.system.notify(ready, peer=other, offsets=[me, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    for other in pl.range(n):
        if other != me:
            pld.system.wait(ready, offsets=[other, 0], expected=1, cmp=pld.WaitCmp.Ge)

    # Fold in every other rank's row.
    total = pl.load(share, [0, 0], [1, LEN])
    for other in pl.range(n):
        if other != me:
            theirs = pld.tile.remote_load(share, peer=other, offsets=[0, 0], shape=[1, LEN])
            total = pl.add(total, theirs)
    return pl.store(total, [0, 0], y)


@pl.jit
def per_device(
    x: pl.Tensor[[1, LEN], pl.FP32],
    y: pl.Out[pl.Tensor[[1, LEN], pl.FP32]],
    share: pl.InOut[pld.DistributedTensor[[1, LEN], pl.FP32]],
    ready: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
) -> pl.Tensor[[1, LEN], pl.FP32]:
    return gather_sum(x, y, share, ready)


@pl.jit.host
def sum_all(
    x: pl.Tensor[[NR, 1, LEN], pl.FP32],
    y: pl.Out[pl.Tensor[[NR, 1, LEN], pl.FP32]],
) -> pl.Tensor[[NR, 1, LEN], pl.FP32]:
    share_buf = pld.alloc_window_buffer(LEN * pl.FP32.get_byte())
    ready_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
    for r in pl.range(pld.world_size()):
        share = pld.window(share_buf, [1, LEN], dtype=pl.FP32)
        ready = pld.window(ready_buf, [pld.world_size(), 1], dtype=pl.INT32)
        per_device(x[r], y[r], share, ready, device=r)
    return y
