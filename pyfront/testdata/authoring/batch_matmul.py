"""Batched matmuls. pl.batch_matmul multiplies cube tiles of rank 3 page
by page; pl.matmul of tensors of rank above 2 is the same product at the
tensor level, its batch dimensions broadcast as NumPy's do. Compiled,
FlattenTileNdTo2D unrolls each into one 2-D tile.matmul per page.
"""

import pypto.language as pl


@pl.program
class BatchTiles:
    @pl.function(type=pl.FunctionType.InCore)
    def bmm(
        self,
        a: pl.Tensor[[2, 16, 32], pl.FP32],
        b: pl.Tensor[[2, 32, 16], pl.FP32],
        c: pl.Out[pl.Tensor[[2, 16, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16, 16], pl.FP32]:
        ta = pl.load(a, offsets=[0, 0, 0], shapes=[2, 16, 32], target_memory=pl.MemorySpace.Mat)
        tb = pl.load(b, offsets=[0, 0, 0], shapes=[2, 32, 16], target_memory=pl.MemorySpace.Mat)
        tc = pl.batch_matmul(ta, tb)
        out = pl.store(tc, offsets=[0, 0, 0], output_tensor=c)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[2, 16, 32], pl.FP32],
        b: pl.Tensor[[2, 32, 16], pl.FP32],
        c: pl.Out[pl.Tensor[[2, 16, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16, 16], pl.FP32]:
        c = self.bmm(a, b, c)
        return c


@pl.program
class SharedWeights:
    @pl.function(type=pl.FunctionType.InCore)
    def project(
        self,
        x: pl.Tensor[[2, 3, 16, 32], pl.FP32],
        w: pl.Tensor[[3, 16, 32], pl.FP32],
        y: pl.Out[pl.Tensor[[2, 3, 16, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 3, 16, 16], pl.FP32]:
        p = pl.matmul(x, w, b_trans=True, out_dtype=pl.FP32)
        y = pl.assemble(y, p, [0, 0, 0, 0])
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[2, 3, 16, 32], pl.FP32],
        w: pl.Tensor[[3, 16, 32], pl.FP32],
        y: pl.Out[pl.Tensor[[2, 3, 16, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 3, 16, 16], pl.FP32]:
        y = self.project(x, w, y)
        return y
