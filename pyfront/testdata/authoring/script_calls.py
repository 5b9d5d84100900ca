"""A script that calls its @pl.jit kernels at module level, with no
__main__ guard, as the user guide's pages do: its sample tensors are made
at the top, sliced (A[HALF:] is HALF rows), passed in a loop over kernels
and through a plain helper that is handed the kernel, and made by a
helper whose default row count is a module constant."""

import pypto.language as pl
import torch

ROWS, COLS = 128, 64
HALF = ROWS // 2

A = torch.randn(ROWS, COLS, dtype=torch.float32)


def zeros(rows=ROWS):
    return torch.zeros(rows, COLS, dtype=torch.float32)


@pl.jit
def double(a: pl.Tensor, c: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [HALF, COLS])
        pl.store(pl.add(t, t), [0, 0], c)
    return c


@pl.jit
def negate(a: pl.Tensor, c: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [HALF, COLS])
        pl.store(pl.mul(t, -1.0), [0, 0], c)
    return c


@pl.jit
def whole_plus_one(a: pl.Tensor, c: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [ROWS, COLS])
        pl.store(pl.add(t, 1.0), [0, 0], c)
    return c


def check(kernel, rows):
    out = zeros(rows)
    kernel(A[:rows], out)


for kernel in (double, negate):
    c = zeros(HALF)
    kernel(A[HALF:], c)

check(whole_plus_one, ROWS)
