"""Cube operands left in Mat: InferTileMemorySpace moves each to the
memory the op reads it from (Left, Right, Bias), as upstream does; and a
Mat tile stored, moved to Vec first."""

import pypto.language as pl


@pl.program
class MatOperands:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        b: pl.Tensor[[64, 16], pl.FP16],
        bias: pl.Tensor[[1, 16], pl.FP32],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        d: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        a_mat = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
        b_mat = pl.load(b, [0, 0], [64, 16], target_memory=pl.Mem.Mat)
        bias_mat = pl.load(bias, [0, 0], [1, 16], target_memory=pl.Mem.Mat)
        pl.store(pl.tile.matmul_bias(a_mat, b_mat, bias_mat), [0, 0], c)
        # K in two halves: the first product, then one accumulation.
        a0 = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        b0 = pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        acc = pl.matmul(a0, b0)
        a1 = pl.load(a, [0, 32], [16, 32], target_memory=pl.Mem.Mat)
        b1 = pl.load(b, [32, 0], [32, 16], target_memory=pl.Mem.Mat)
        acc = pl.matmul_acc(acc, a1, b1)
        pl.store(acc, [0, 0], d)

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        b: pl.Tensor[[64, 16], pl.FP16],
        bias: pl.Tensor[[1, 16], pl.FP32],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        d: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        self.kernel(a, b, bias, c, d)


@pl.program
class AccIntoVector:
    """A matmul's Acc result read by vector ops (upstream's mixed SPMD
    kernel: matmul on the cube, bias add on the vector core): each op
    declares a Vec input, so InferTileMemorySpace moves the tile there."""

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16],
        bias: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        a_l = pl.move(pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        b_r = pl.move(pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        mm = pl.matmul(a_l, b_r)
        biased = pl.add(mm, pl.load(bias, [0, 0], [16, 16]))
        pl.store(pl.mul(biased, 0.5), [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16],
        bias: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        self.kernel(a, b, bias, out)


@pl.program
class AccIntoCube:
    """A matmul's result, cast to BF16, multiplied again (upstream's biased
    GEMM with a BF16 scratch): the Acc tile goes back to Mat, the fixpipe's
    writeback, and on to Left before the second matmul."""

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.BF16],
        b: pl.Tensor[[32, 16], pl.BF16],
        e: pl.Tensor[[16, 16], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        a_mat = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        b_mat = pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        e_mat = pl.load(e, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        c = pl.tile.matmul(a_mat, b_mat)
        cb = pl.cast(c, pl.BF16, mode="rint")
        d = pl.tile.matmul(cb, e_mat)
        pl.store(d, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[16, 32], pl.BF16],
        b: pl.Tensor[[32, 16], pl.BF16],
        e: pl.Tensor[[16, 16], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        self.kernel(a, b, e, out)


@pl.program
class MatStore:
    """A tile loaded to Mat and stored from there (upstream's
    test_load_with_mat_kwarg): a store takes Vec or Acc, so
    InferTileMemorySpace moves the tile to Vec first, its NZ layout kept."""

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 128], pl.BF16], out: pl.Out[pl.Tensor[[16, 128], pl.BF16]]):
        x_mat = pl.load(x, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
        pl.store(x_mat, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 128], pl.BF16], out: pl.Out[pl.Tensor[[16, 128], pl.BF16]]):
        self.kernel(x, out)
