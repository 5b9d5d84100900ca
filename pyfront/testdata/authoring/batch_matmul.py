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


@pl.program
class BatchSplitK:
    @pl.function(type=pl.FunctionType.InCore)
    def split_k(
        self,
        x: pl.Tensor[[2, 16, 64], pl.FP32],
        w: pl.Tensor[[2, 64, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[2, 16, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16, 16], pl.FP32]:
        x0 = pl.slice(x, [2, 16, 32], [0, 0, 0])
        x1 = pl.slice(x, [2, 16, 32], [0, 0, 32])
        w0 = pl.slice(w, [2, 32, 16], [0, 0, 0])
        w1 = pl.slice(w, [2, 32, 16], [0, 32, 0])
        acc = pl.matmul(x0, w0, out_dtype=pl.FP32)
        acc = pl.matmul_acc(acc, x1, w1)
        y = pl.assemble(y, acc, [0, 0, 0])
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[2, 16, 64], pl.FP32],
        w: pl.Tensor[[2, 64, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[2, 16, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16, 16], pl.FP32]:
        y = self.split_k(x, w, y)
        return y


@pl.program
class BatchTilesAcc:
    @pl.function(type=pl.FunctionType.InCore)
    def split_k(
        self,
        x: pl.Tensor[[2, 16, 64], pl.FP32],
        w: pl.Tensor[[2, 64, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[2, 16, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16, 16], pl.FP32]:
        x0 = pl.load(x, offsets=[0, 0, 0], shapes=[2, 16, 32], target_memory=pl.MemorySpace.Mat)
        w0 = pl.load(w, offsets=[0, 0, 0], shapes=[2, 32, 16], target_memory=pl.MemorySpace.Mat)
        x1 = pl.load(x, offsets=[0, 0, 32], shapes=[2, 16, 32], target_memory=pl.MemorySpace.Mat)
        w1 = pl.load(w, offsets=[0, 32, 0], shapes=[2, 32, 16], target_memory=pl.MemorySpace.Mat)
        acc = pl.batch_matmul(x0, w0)
        acc = pl.batch_matmul_acc(acc, x1, w1)
        out = pl.store(acc, offsets=[0, 0, 0], output_tensor=y)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[2, 16, 64], pl.FP32],
        w: pl.Tensor[[2, 64, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[2, 16, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16, 16], pl.FP32]:
        y = self.split_k(x, w, y)
        return y
