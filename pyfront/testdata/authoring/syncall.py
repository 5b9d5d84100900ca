"""A barrier across the blocks of an Spmd launch: every block publishes
its rows to a shared GM scratch, meets the others at
pl.system.syncall, then reads its neighbour's rows, which only the
barrier guarantees are there. The soft form polls a GM workspace; the
hard form is the hardware's barrier."""

import pypto.language as pl

BLOCKS = 4
ROWS = 8
COLS = 16
WS = 16


@pl.program
class SyncAllRotate:
    @pl.function(type=pl.FunctionType.InCore)
    def rotate(
        self,
        x: pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32],
        scratch: pl.InOut[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]:
        b = pl.tile.get_block_idx()
        t = pl.load(x, [b * ROWS, 0], [ROWS, COLS])
        scratch = pl.store(pl.add(t, t), [b * ROWS, 0], scratch)
        pl.system.syncall(core_type="aiv_only")
        nb = (b + 1) % BLOCKS
        u = pl.load(scratch, [nb * ROWS, 0], [ROWS, COLS])
        out = pl.store(u, [b * ROWS, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        x: pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32],
        scratch: pl.InOut[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]:
        with pl.spmd(BLOCKS):
            out = self.rotate(x, scratch, out)
        return out


@pl.program
class SyncAllSubmit:
    """The launch as one SPMD task (pl.spmd_submit): the blocks still meet."""

    @pl.function(type=pl.FunctionType.InCore)
    def rotate(
        self,
        x: pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32],
        scratch: pl.InOut[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]:
        b = pl.tile.get_block_idx()
        t = pl.load(x, [b * ROWS, 0], [ROWS, COLS])
        scratch = pl.store(pl.mul(t, 4.0), [b * ROWS, 0], scratch)
        pl.system.syncall(core_type="aiv_only")
        u = pl.load(scratch, [(b + 2) % BLOCKS * ROWS, 0], [ROWS, COLS])
        out = pl.store(u, [b * ROWS, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        x: pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32],
        scratch: pl.InOut[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]:
        out, _ = pl.spmd_submit(self.rotate, x, scratch, out, core_num=BLOCKS)
        return out


@pl.program
class SyncAllSoft:
    @pl.function(type=pl.FunctionType.InCore)
    def rotate(
        self,
        x: pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32],
        scratch: pl.InOut[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
        ws: pl.InOut[pl.Tensor[[WS], pl.INT32]],
        out: pl.Out[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]:
        b = pl.tile.get_block_idx()
        t = pl.load(x, [b * ROWS, 0], [ROWS, COLS])
        scratch = pl.store(pl.mul(t, 3.0), [b * ROWS, 0], scratch)
        pl.system.syncall(mode="soft", core_type="aiv_only", gm_workspace=ws, used_cores=BLOCKS)
        nb = (b + BLOCKS - 1) % BLOCKS
        u = pl.load(scratch, [nb * ROWS, 0], [ROWS, COLS])
        out = pl.store(u, [b * ROWS, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        x: pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32],
        scratch: pl.InOut[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
        ws: pl.InOut[pl.Tensor[[WS], pl.INT32]],
        out: pl.Out[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]:
        with pl.spmd(BLOCKS):
            out = self.rotate(x, scratch, ws, out)
        return out


def build_skipped(skip):
    """Block skip never reaches the barrier the others wait at: a deadlock."""

    @pl.program
    class SyncAllSkipped:
        @pl.function(type=pl.FunctionType.InCore)
        def rotate(
            self,
            x: pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32],
            out: pl.Out[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
        ) -> pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]:
            b = pl.tile.get_block_idx()
            if b != skip:
                pl.system.syncall(core_type="aiv_only")
            t = pl.load(x, [b * ROWS, 0], [ROWS, COLS])
            out = pl.store(t, [b * ROWS, 0], out)
            return out

        @pl.function(type=pl.FunctionType.Orchestration)
        def orchestrator(
            self,
            x: pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32],
            out: pl.Out[pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]],
        ) -> pl.Tensor[[BLOCKS * ROWS, COLS], pl.FP32]:
            with pl.spmd(BLOCKS):
                out = self.rotate(x, out)
            return out

    return SyncAllSkipped
