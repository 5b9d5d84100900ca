"""SPMD launches: a kernel run once per block, each block taking its own rows."""

import pypto.language as pl


@pl.program
class Spmd:
    @pl.function(type=pl.FunctionType.InCore)
    def add_rows(
        self,
        a: pl.Tensor[[64, 32], pl.FP32],
        b: pl.Tensor[[64, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
    ) -> pl.Tensor[[64, 32], pl.FP32]:
        blk = pl.tile.get_block_idx()
        ta = pl.load(a, [blk * 16, 0], [16, 32])
        tb = pl.load(b, [blk * 16, 0], [16, 32])
        out = pl.store(pl.add(ta, tb), [blk * 16, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[64, 32], pl.FP32],
        b: pl.Tensor[[64, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
        scaled: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
        doubled: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
    ):
        # Dispatch form: the kernel reads its block index itself (in a
        # cluster region, co-scheduling it; core_num spelled as a keyword).
        with pl.cluster(name_hint="adders"):
            with pl.spmd(core_num=4):
                out = self.add_rows(a, b, out)
        # Loop form: the body is the kernel, i its block index.
        for i in pl.spmd(2, name_hint="scale"):
            n = pl.cast(pl.tile.get_block_num(), pl.FP32)
            t = pl.load(a, [i * 32, 0], [32, 32])
            scaled = pl.store(pl.mul(t, n), [i * 32, 0], scaled)
        # Inline with-form: a body reading the index is the kernel.
        with pl.spmd(8, sync_start=True):
            j = pl.tile.get_block_idx()
            u = pl.load(b, [j * 8, 0], [8, 32])
            doubled = pl.store(pl.add(u, u), [j * 8, 0], doubled)
        return out, scaled, doubled


@pl.program
class SpmdTensorScope:
    """The tensor-scope block queries (pl.get_block_idx, pl.get_block_num)
    in an inline launch written with tensor ops."""

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[64, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
    ) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.spmd(4):
            c = pl.get_block_idx()
            n = pl.cast(pl.get_block_num(), pl.FP32)
            part = pl.slice(a, [16, 32], [c * 16, 0])
            out = pl.assemble(out, pl.mul(part, n), [c * 16, 0])
        return out
