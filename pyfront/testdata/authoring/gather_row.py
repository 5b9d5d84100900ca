"""Gathers straight into an on-chip (L1) accumulator that a matmul then
reads: rows of a GM pool land in slots of a pl.create_l1 buffer, by
pl.gather_row (a runtime row count through valid_shape, and a loop that
looks up each row's physical position) and by pl.paged_gather (a block
table translating logical rows). An identity matrix times the buffer
reads it back out through the cube."""

import pypto.language as pl

ROWS = 16
DIM = 32
POOL = 64
SENT = 40
BLOCK = 8


@pl.program
class GatherRowValid:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        pool: pl.Tensor[[POOL, DIM], pl.FP16],
        n: pl.Tensor[[1], pl.INT32],
        eye: pl.Tensor[[ROWS, ROWS], pl.FP16],
        output: pl.Out[pl.Tensor[[ROWS, DIM], pl.FP32]],
    ) -> pl.Tensor[[ROWS, DIM], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            rows = pl.cast(pl.read(n, [0]), pl.INDEX)
            kv = pl.create_l1([ROWS, DIM], pl.FP16)
            # Every slot first gets pool row SENT + i, then the first
            # `rows` slots pool row i.
            kv = pl.gather_row(kv, pool, [0, 0], [SENT, 0], [ROWS, DIM])
            kv = pl.gather_row(kv, pool, [0, 0], [0, 0], [ROWS, DIM], valid_shape=[rows, DIM])
            result = pl.matmul(eye, kv, out_dtype=pl.FP32)
            output = pl.assemble(output, result, [0, 0])
        return output


@pl.program
class GatherRowLoop:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        pool: pl.Tensor[[POOL, DIM], pl.FP16],
        slots: pl.Tensor[[ROWS], pl.INT32],
        eye: pl.Tensor[[ROWS, ROWS], pl.FP16],
        output: pl.Out[pl.Tensor[[ROWS, DIM], pl.FP32]],
    ) -> pl.Tensor[[ROWS, DIM], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            kv = pl.create_l1([ROWS, DIM], pl.FP16)
            for r in pl.range(ROWS):
                phys = pl.cast(pl.read(slots, [r]), pl.INDEX)
                kv = pl.gather_row(kv, pool, [r, 0], [phys, 0], [1, DIM])
            result = pl.matmul(eye, kv, out_dtype=pl.FP32)
            output = pl.assemble(output, result, [0, 0])
        return output


@pl.program
class PagedGatherMat:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        pool: pl.Tensor[[POOL, DIM], pl.FP16],
        idx: pl.Tensor[[ROWS], pl.INT32],
        table: pl.Tensor[[POOL // BLOCK], pl.INT32],
        eye: pl.Tensor[[ROWS, ROWS], pl.FP16],
        output: pl.Out[pl.Tensor[[ROWS, DIM], pl.FP32]],
    ) -> pl.Tensor[[ROWS, DIM], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            gathered = pl.paged_gather(
                pool, idx, table, block_size=BLOCK, size=DIM, max_indices=ROWS, space=pl.MemorySpace.Mat
            )
            result = pl.matmul(eye, gathered, out_dtype=pl.FP32)
            output = pl.assemble(output, result, [0, 0])
        return output


@pl.program
class PagedGatherVec:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        pool: pl.Tensor[[POOL, DIM], pl.FP16],
        idx: pl.Tensor[[ROWS], pl.INT32],
        table: pl.Tensor[[POOL // BLOCK], pl.INT32],
        output: pl.Out[pl.Tensor[[ROWS, 16], pl.FP16]],
    ) -> pl.Tensor[[ROWS, 16], pl.FP16]:
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.paged_gather(
                pool, idx, table, block_size=BLOCK, size=16, col_off=8, max_indices=ROWS, space=pl.MemorySpace.Vec
            )
            output = pl.assemble(output, out, [0, 0])
        return output
