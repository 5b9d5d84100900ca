"""Selective dumps: pl.dump_tag(t) marks a tensor, and every kernel call
after it that passes t, and every pl.at region after it, dumps t (the
runtime captures it for debugging; no value changes). An @pl.jit.inline
helper is a function of its own: its parameters, named here like the
entry's variables, do not rebind them."""

import pypto.language as pl

N = 64


@pl.jit.inline
def add_one(a: pl.Tensor, c: pl.Tensor):
    pl.dump_tag(a)
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [N, N])
        pl.store(pl.add(t, 1.0), [0, 0], c)
    return c


@pl.jit.inline
def double(a: pl.Tensor, c: pl.Tensor):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [N, N])
        pl.store(pl.mul(t, 2.0), [0, 0], c)
    return c


@pl.jit
def add_then_double(a: pl.Tensor[[N, N], pl.FP32], c: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    mid = pl.create_tensor([N, N], dtype=pl.FP32)
    pl.dump_tag(mid)
    mid = add_one(a, mid)
    c = double(mid, c)
    return c


@pl.program
class TaggedCalls:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        t: pl.Tile[[N, N], pl.FP32] = pl.load(x, [0, 0], [N, N])
        return pl.store(pl.mul(t, 2.0), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        z: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        y = self.scale(x, y)
        pl.dump_tag(x)
        z = self.scale(x, z)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="plus", dumps=[z]):
            t = pl.load(z, [0, 0], [N, N])
            z = pl.store(pl.add(t, 1.0), [0, 0], z)
        return z
