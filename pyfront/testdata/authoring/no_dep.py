"""pl.no_dep: a kernel-call argument (or, on a region, no_dep_args=) that
the runtime does not track, so the launch neither waits for earlier
writers of that tensor nor makes later users wait for it. It is a
promise. Kept, two kernels write disjoint halves of one tensor and may
run together; broken, a consumer reads what its producer is still
writing. The simulator runs tasks in order, so the values come out right
either way, and the checker reports the broken promise."""

import pypto.language as pl

ROWS = 32
COLS = 32
HALF = 16


@pl.program
class DisjointHalves:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        row: pl.Scalar[pl.INDEX],
        k: pl.Scalar[pl.FP32],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t: pl.Tile[[HALF, COLS], pl.FP32] = pl.load(x, [row, 0], [HALF, COLS])
        return pl.store(pl.mul(t, k), [row, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        out = self.scale(x, out, 0, 2.0)
        # The second half is disjoint from the first: no need to wait.
        out = self.scale(x, pl.no_dep(out), HALF, 3.0)
        return out


@pl.program
class BrokenPromise:
    @pl.function(type=pl.FunctionType.InCore)
    def double(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        scratch: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(x, [0, 0], [ROWS, COLS])
        return pl.store(pl.add(t, t), [0, 0], scratch)

    @pl.function(type=pl.FunctionType.InCore)
    def plus_one(
        self,
        scratch: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(scratch, [0, 0], [ROWS, COLS])
        return pl.store(pl.add(t, 1.0), [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        scratch: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        scratch = self.double(x, scratch)
        # Wrong: plus_one reads every byte double writes.
        out = self.plus_one(pl.no_dep(scratch), out)
        return out


@pl.program
class RegionPromise:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        scratch: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="produce"):
            t: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(x, [0, 0], [ROWS, COLS])
            scratch = pl.store(pl.add(t, t), [0, 0], scratch)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="consume", no_dep_args=[scratch]):
            u: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(scratch, [0, 0], [ROWS, COLS])
            out = pl.store(pl.add(u, 1.0), [0, 0], out)
        return out


STEPS = 64


def build_chain(broken):
    """double writes t, STEPS launches add t into acc, finish reads t
    through pl.no_dep. finish is still ordered after double, through the
    acc chain (each accumulate reads t as double wrote it, finish reads acc
    as the last one left it): clean. With acc no_dep too, nothing orders
    finish after either: both are races."""

    @pl.program
    class Chain:
        @pl.function(type=pl.FunctionType.InCore)
        def double(
            self,
            x: pl.Tensor[[ROWS, COLS], pl.FP32],
            t: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
            a: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(x, [0, 0], [ROWS, COLS])
            return pl.store(pl.add(a, a), [0, 0], t)

        @pl.function(type=pl.FunctionType.InCore)
        def accumulate(
            self,
            t: pl.Tensor[[ROWS, COLS], pl.FP32],
            acc: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]],
        ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
            a: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(t, [0, 0], [ROWS, COLS])
            b: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(acc, [0, 0], [ROWS, COLS])
            return pl.store(pl.add(a, b), [0, 0], acc)

        @pl.function(type=pl.FunctionType.InCore)
        def finish(
            self,
            t: pl.Tensor[[ROWS, COLS], pl.FP32],
            acc: pl.Tensor[[ROWS, COLS], pl.FP32],
            out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
            a: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(t, [0, 0], [ROWS, COLS])
            b: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(acc, [0, 0], [ROWS, COLS])
            return pl.store(pl.add(a, b), [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[ROWS, COLS], pl.FP32],
            acc: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]],
            out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
            t = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
            t = self.double(x, t)
            for i in pl.range(STEPS):
                acc = self.accumulate(t, acc)
            if broken:
                out = self.finish(pl.no_dep(t), pl.no_dep(acc), out)
            else:
                out = self.finish(pl.no_dep(t), acc, out)
            return out

    return Chain
