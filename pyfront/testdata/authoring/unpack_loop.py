"""Tuple unpacking before and inside a loop: each unpacking binds the
reader's _tuple_tmp, here to tuples of two and three tensors. The loop's
rebinding is a new variable, not a loop-carried one (no iter-arg could
hold both), while the names it unpacks into are carried as usual."""

import pypto.language as pl


@pl.program
class UnpackLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def pair(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        a: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
        b: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[4, 16], pl.FP32], pl.Tensor[[4, 16], pl.FP32]]:
        t = pl.load(x, [0, 0], [4, 16])
        a = pl.store(t, [0, 0], a)
        b = pl.store(pl.add(t, t), [0, 0], b)
        return a, b

    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        a: pl.Tensor[[4, 16], pl.FP32],
        b: pl.Tensor[[4, 16], pl.FP32],
        na: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
        nb: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
        s: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[4, 16], pl.FP32], pl.Tensor[[4, 16], pl.FP32], pl.Tensor[[4, 16], pl.FP32]]:
        ta = pl.load(a, [0, 0], [4, 16])
        tb = pl.load(b, [0, 0], [4, 16])
        na = pl.store(tb, [0, 0], na)
        nb = pl.store(pl.add(ta, tb), [0, 0], nb)
        s = pl.store(pl.mul(ta, tb), [0, 0], s)
        return na, nb, s

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        a0 = pl.create_tensor([4, 16], dtype=pl.FP32)
        b0 = pl.create_tensor([4, 16], dtype=pl.FP32)
        a, b = self.pair(x, a0, b0)
        for i in pl.range(3):
            na = pl.create_tensor([4, 16], dtype=pl.FP32)
            nb = pl.create_tensor([4, 16], dtype=pl.FP32)
            a, b, y = self.step(a, b, na, nb, y)
        return y
