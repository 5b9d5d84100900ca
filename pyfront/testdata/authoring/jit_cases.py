# @pl.jit kernels driven from tables of cases, as upstream's examples
# drive theirs: the sizes of their bare pl.Tensor parameters come from the
# torch tensors each case passes.
import argparse

import pypto.language as pl
import torch

ROWS = 16


@pl.jit
def double_a(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, 32])
        pl.store(pl.add(t, t), [0, 0], y)
    return y


@pl.jit
def double_b(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, 48])
        pl.store(pl.add(t, t), [0, 0], y)
    return y


@pl.jit
def by_mode_add(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, 8])
        pl.store(pl.add(t, t), [0, 0], y)
    return y


@pl.jit
def by_mode_mul(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, 8])
        pl.store(pl.mul(t, t), [0, 0], y)
    return y


@pl.jit
def listed(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, 24])
        pl.store(pl.add(t, t), [0, 0], y)
    return y


@pl.jit
def keyed(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, 40])
        pl.store(pl.add(t, t), [0, 0], y)
    return y


@pl.jit
def from_literal(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [2, 3])
        pl.store(pl.add(t, t), [0, 0], y)
    return y


@pl.jit
def int_literal(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [2, 2])
        pl.store(pl.add(t, t), [0, 0], y)
    return y


_MODES = {"add": by_mode_add, "mul": by_mode_mul}
_NAMED = {"keyed": keyed, "listed": listed}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=sorted(_MODES), default="add")
    args = parser.parse_args()

    # A loop over (kernel, size) pairs: the size is bound in each pass.
    for fn, cols in ((double_a, 32), (double_b, 48)):
        x = torch.randn(ROWS, cols, dtype=torch.float32)
        fn(x, torch.zeros_like(x))

    # A dict indexed by a value known only when the file runs: every kernel
    # in it is specialized on the call.
    x = torch.randn(ROWS, 8, dtype=torch.float32)
    _MODES[args.mode](x, torch.zeros_like(x))

    # A list of (name, kernel, args) spread into the call.
    cases = [
        ("listed", listed, (torch.randn(ROWS, 24), torch.zeros(ROWS, 24))),
    ]
    for name, fn, fargs in cases:
        prog = fn.lower(*fargs)

    # torch.tensor of a literal: its nesting is the shape; floats are FP32,
    # ints INT64 unless dtype= says otherwise.
    lit = torch.tensor([[1.5, 2, 3], [4, 5, -6]])
    from_literal(lit, torch.zeros_like(lit))
    ints = torch.tensor(((1, 2), (3, 4)), dtype=torch.int32)
    int_literal(ints, torch.zeros_like(ints))

    # A dict's items, and a literal key.
    for name, kernel in _NAMED.items():
        if name == "keyed":
            kernel(torch.randn(ROWS, 40), torch.zeros(ROWS, 40))
    _NAMED["listed"](torch.randn(ROWS, 24), torch.zeros(ROWS, 24))
