"""@pl.jit functions with bare parameter annotations, as upstream's guide
writes them (docs/en/user/.../01-functions.md): pl.Tensor and
pld.DistributedTensor without a shape take the shapes of what the host's
call passes, the windows included. Each rank adds its neighbour's row to
its own."""

import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.jit.incore
def add_neighbour(
    inp: pl.Tensor,
    out: pl.Out[pl.Tensor],
    data: pl.InOut[pld.DistributedTensor],
    sig: pl.InOut[pld.DistributedTensor],
    peer: pl.Scalar[pl.INT32],
):
    t = pl.load(inp, [0, 0], [1, 256])
    data = pl.store(t, [0, 0], data)
    sig = pld.tensor.barrier(sig)
    theirs = pld.tile.remote_load(data, peer=peer, offsets=[0, 0], shape=[1, 256])
    out = pl.store(pl.add(t, theirs), [0, 0], out)
    return out


@pl.jit
def chip_orch(
    inp: pl.Tensor,
    out: pl.Out[pl.Tensor],
    data: pl.InOut[pld.DistributedTensor],
    sig: pl.InOut[pld.DistributedTensor],
    peer: pl.Scalar[pl.INT32],
):
    return add_neighbour(inp, out, data, sig, peer)


@pl.jit.host
def host_orch(
    inputs: pl.Tensor[[NR, 1, 256], pl.FP32],
    outputs: pl.Out[pl.Tensor[[NR, 1, 256], pl.FP32]],
):
    data_buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
    sig_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
    for r in pl.range(pld.world_size()):
        data = pld.window(data_buf, [1, 256], dtype=pl.FP32)
        sig = pld.window(sig_buf, [pld.world_size(), 1], dtype=pl.INT32)
        chip_orch(inputs[r], outputs[r], data, sig, (r + 1) % pld.world_size(), device=r)
    return outputs
