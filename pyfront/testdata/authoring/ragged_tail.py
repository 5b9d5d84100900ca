"""A remote load into a fixed physical tile that reaches past a ragged
tail: the window holds 17 columns, the tile has 32, and valid_shape says
only the first 17 are read (upstream's clamped window read). Each rank
pulls its neighbour's row."""

import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
COLS = 17
TILE = 32


@pl.jit.incore
def pull_tail(
    x: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    buf: pl.InOut[pld.DistributedTensor[[1, COLS], pl.FP32]],
    sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
):
    ctx = pld.system.get_comm_ctx(buf)
    me = pld.system.rank(ctx)
    n = pld.system.nranks(ctx)
    buf = pl.store(pl.load(x, [0, 0], [1, COLS]), [0, 0], buf)
    sig = pld.tensor.barrier(sig)
    got = pld.tile.remote_load(buf, peer=(me + 1) % n, offsets=[0, 0], shape=[1, TILE], valid_shape=[1, COLS])
    y = pl.store(got, [0, 0], y)
    return y


@pl.jit
def orch_tail(
    x: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    buf: pl.InOut[pld.DistributedTensor[[1, COLS], pl.FP32]],
    sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
):
    return pull_tail(x, y, buf, sig)


@pl.jit.host
def ragged_tail(x: pl.Tensor[[NR, 1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, COLS], pl.FP32]]):
    buf_mem = pld.alloc_window_buffer(COLS * 4)
    sig_mem = pld.alloc_window_buffer(pld.world_size() * 4)
    for r in pl.range(pld.world_size()):
        buf = pld.window(buf_mem, [1, COLS], dtype=pl.FP32)
        sig = pld.window(sig_mem, [pld.world_size(), 1], dtype=pl.INT32)
        orch_tail(x[r], y[r], buf, sig, device=r)
