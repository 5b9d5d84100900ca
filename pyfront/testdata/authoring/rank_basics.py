"""Rank identity, per-rank dispatch and a private window, in the authoring
form of PyPTO's distributed examples.

Three host entries: ``offset_by_rank`` (y[r] = x[r] + r), ``grow_by_rank``
(y[r] = x[r] * (r + 1)) and ``echo_window`` (y[r] = x[r] through the rank's
own window).
"""

import argparse

import pypto.language as pl
import pypto.language.distributed as pld
import torch

WORLD = 2
H = 4
W = 16


@pl.jit.incore
def add_my_rank(
    x: pl.Tensor[[H, W], pl.FP32],
    y: pl.Out[pl.Tensor[[H, W], pl.FP32]],
    me: pl.Scalar[pl.INT32],
):
    """y = x + me."""
    t = pl.load(x, [0, 0], [H, W])
    me_f = pl.cast(me, target_type=pl.FP32)
    t = pl.add(t, me_f)  # tile-by-scalar add
    y = pl.store(t, [0, 0], y)
    return y


@pl.jit.incore
def grow(
    x: pl.Tensor[[H, W], pl.FP32],
    y: pl.Out[pl.Tensor[[H, W], pl.FP32]],
    me: pl.Scalar[pl.INT32],
):
    t = pl.load(x, [0, 0], [H, W])
    f = pl.cast(me, target_type=pl.FP32)
    scaled = pl.mul(t, f)
    y = pl.store(pl.add(scaled, t), [0, 0], y)
    return y


@pl.jit
def fwd_add(
    x: pl.Tensor[[H, W], pl.FP32],
    y: pl.Out[pl.Tensor[[H, W], pl.FP32]],
    me: pl.Scalar[pl.INT32],
):
    return add_my_rank(x, y, me)


@pl.jit
def fwd_grow(
    x: pl.Tensor[[H, W], pl.FP32],
    y: pl.Out[pl.Tensor[[H, W], pl.FP32]],
    me: pl.Scalar[pl.INT32],
):
    return grow(x, y, me)


@pl.jit.host
def offset_by_rank(
    x: pl.Tensor[[WORLD, H, W], pl.FP32],
    y: pl.Out[pl.Tensor[[WORLD, H, W], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        fwd_add(x[r], y[r], r, device=r)


@pl.jit.host
def grow_by_rank(
    x: pl.Tensor[[WORLD, H, W], pl.FP32],
    y: pl.Out[pl.Tensor[[WORLD, H, W], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        fwd_grow(x[r], y[r], r, device=r)


@pl.jit.incore
def through_window(
    x: pl.Tensor[[1, W], pl.FP32],
    y: pl.Out[pl.Tensor[[1, W], pl.FP32]],
    win: pld.DistributedTensor[[1, W], pl.FP32],
):
    win = pl.store(pl.load(x, [0, 0], [1, W]), [0, 0], win)
    y = pl.store(pl.load(win, [0, 0], [1, W]), [0, 0], y)
    return y


@pl.jit
def fwd_window(
    x: pl.Tensor[[1, W], pl.FP32],
    y: pl.Out[pl.Tensor[[1, W], pl.FP32]],
    win: pld.DistributedTensor[[1, W], pl.FP32],
):
    return through_window(x, y, win)


@pl.jit.host
def echo_window(
    x: pl.Tensor[[WORLD, 1, W], pl.FP32],
    y: pl.Out[pl.Tensor[[WORLD, 1, W], pl.FP32]],
):
    win_buf = pld.alloc_window_buffer([1, W], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        win = pld.window(win_buf, [1, W], dtype=pl.FP32)
        fwd_window(x[r], y[r], win, device=r)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="0,1")
    args = parser.parse_args()
    x = torch.randn((WORLD, H, W))
    print(args, x)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
