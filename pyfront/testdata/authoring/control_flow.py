"""While loops, break and continue in kernels. CtrlFlowTransform lowers
break and continue to structured control flow (a for loop that breaks
becomes a while over a counter), ConvertToSSA carries what the loops
assign, and a while loop is scf.while in PTO."""

import pypto.language as pl

R = 16
C = 32
BLOCKS = 6


@pl.program
class ControlFlow:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[BLOCKS * R, C], pl.FP32],
        stop: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[BLOCKS * R, C], pl.FP32]],
        odd: pl.Out[pl.Tensor[[BLOCKS * R, C], pl.FP32]],
    ) -> tuple[pl.Tensor[[BLOCKS * R, C], pl.FP32], pl.Tensor[[BLOCKS * R, C], pl.FP32]]:
        # Blocks 0, 2, 4 doubled (continue skips the odd ones), up to the
        # first block at or past stop (break).
        for i in pl.range(BLOCKS):
            if i >= stop:
                break
            if i % 2 == 1:
                continue
            t = pl.load(a, [i * R, 0], [R, C])
            out = pl.store(pl.mul(t, 2.0), [i * R, 0], out)
        # Odd blocks below stop plus one, into odd, by a while loop over j.
        j: pl.Scalar[pl.INDEX] = 1
        while j < stop and j < BLOCKS:
            t = pl.load(a, [j * R, 0], [R, C])
            odd = pl.store(pl.add(t, 1.0), [j * R, 0], odd)
            j = j + 2
        return out, odd

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[BLOCKS * R, C], pl.FP32],
        stop: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[BLOCKS * R, C], pl.FP32]],
        odd: pl.Out[pl.Tensor[[BLOCKS * R, C], pl.FP32]],
    ) -> tuple[pl.Tensor[[BLOCKS * R, C], pl.FP32], pl.Tensor[[BLOCKS * R, C], pl.FP32]]:
        out, odd = self.kernel(a, stop, out, odd)
        return out, odd


@pl.program
class Search:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[BLOCKS * R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        # The first block whose corner is negative, by `while True` and a
        # break inside nested ifs; its index, scaled, fills out.
        k: pl.Scalar[pl.INDEX] = 0
        found: pl.Scalar[pl.INDEX] = BLOCKS
        while True:
            if k >= BLOCKS:
                break
            corner = pl.tensor.read(a, [k * R, 0])
            if corner < 0.0:
                found = k
                break
            k = k + 1
        acc = pl.tile.full([R, C], dtype=pl.FP32, value=0.0)
        for s in pl.range(found):
            acc = pl.add(acc, 1.0)
        out = pl.store(acc, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[BLOCKS * R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        out = self.kernel(a, out)
        return out


@pl.program
class TensorCarry:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[R, C], pl.FP32],
        times: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ):
        # A tensor the while loop accumulates into becomes a tile carried
        # by the loop (ConvertTensorToTileOps), as a for loop's does.
        with pl.at(level=pl.Level.CORE_GROUP):
            acc = pl.mul(a, 1.0)
            k: pl.Scalar[pl.INDEX] = 0
            while k < times:
                acc = pl.add(acc, a)
                k = k + 1
            out = pl.assemble(out, acc, [0, 0])
        return out
