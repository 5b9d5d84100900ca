"""The sum over every rank of sum_all.py, factored into inline helpers:
an @pl.jit.inline barrier and an @pl.inline fold, each spliced into the
kernel where it is called.

One host entry, ``sum_with_helpers``: every y[r] is the sum of all the x rows.
"""

import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
LEN = 64


@pl.jit.inline
def arrive_all(ready, me, n):
    """Credit every other rank, then wait for a credit from each."""
    for peer in pl.range(n):
        if peer != me:
            pld.system.notify(ready, peer=peer, offsets=[me, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    for src in pl.range(n):
        if src != me:
            pld.system.wait(ready, offsets=[src, 0], expected=1, cmp=pld.WaitCmp.Ge)
    return ready


@pl.inline
def fold_peers(share, me, n):
    acc = pl.load(share, [0, 0], [1, LEN])
    for peer in pl.range(n):
        if peer != me:
            theirs = pld.tile.remote_load(share, peer=peer, offsets=[0, 0], shape=[1, LEN])
            acc = pl.add(acc, theirs)
    return acc
    # (the value of the call)


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
    share = pl.store(pl.load(x, [0, 0], [1, LEN]), [0, 0], share)
    ready = arrive_all(ready, me, n)
    total = fold_peers(share, me, n)
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
def sum_with_helpers(
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
