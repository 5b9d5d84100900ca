"""Module-level kernels a program calls by name, as upstream's paged
attention example calls its kernels: the program takes them in."""

import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def gram(x: pl.Tensor[[16, 32], pl.FP16], g: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    """x @ x^T: the second operand is the same Mat tile seen transposed."""
    a = pl.load(x, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
    b = pl.load(x, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
    bt = pl.tile.transpose_view(b)
    acc = pl.matmul(pl.move(a, target_memory=pl.MemorySpace.Left), pl.move(bt, target_memory=pl.MemorySpace.Right))
    return pl.store(acc, [0, 0], g)


@pl.function(type=pl.FunctionType.InCore)
def pick(x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]], doubled: pl.Scalar[pl.BOOL]) -> pl.Tensor[[16, 32], pl.FP32]:
    t = pl.load(x, [0, 0], [16, 32])
    if doubled:
        out = pl.store(pl.add(t, t), [0, 0], y)
    else:
        out = pl.store(t, [0, 0], y)
    return out


@pl.program
class ModuleKernels:
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x16: pl.Tensor[[16, 32], pl.FP16],
        g: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        x: pl.Tensor[[16, 32], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        g = gram(x16, g)
        for i in pl.range(2):
            if i == 1:
                flag = pl.yield_(1)
            else:
                flag = pl.yield_(0)
            # A [16, 24] window of x passed as a [16, 32] parameter: the
            # kernel reads its parameter's shape at the window's base.
            part = pl.slice(x, [16, 24], [0, 0])
            y = pick(part, y, flag)
        return y
