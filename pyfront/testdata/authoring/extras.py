"""matmul_bias (the bias row starts every sum) and fillpad_expand (a
tile's valid region padded out to a larger tile)."""

import pypto.language as pl


@pl.program
class Extras:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16],
        bias: pl.Tensor[[1, 16], pl.FP32],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        x: pl.Tensor[[8, 16], pl.FP32],
        big: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ):
        left = pl.move(pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left)
        right = pl.move(pl.load(b, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        row = pl.move(pl.load(bias, [0, 0], [1, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Bias)
        pl.store(pl.matmul_bias(left, right, row), [0, 0], c)
        t = pl.load(x, [0, 0], [8, 16], valid_shape=[6, 16])
        pl.store(pl.fillpad_expand(t, [16, 32], pad_value=pl.PadValue.max), [0, 0], big)

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16],
        bias: pl.Tensor[[1, 16], pl.FP32],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        x: pl.Tensor[[8, 16], pl.FP32],
        big: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ):
        self.kernel(a, b, bias, c, x, big)


@pl.program
class Narrow:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        """set_validshape and fillpad on tensors: tile ops once in a kernel."""
        with pl.at(level=pl.Level.CORE_GROUP):
            narrowed = pl.set_validshape(x, 6, 12)
            padded = pl.fillpad(narrowed, pad_value=pl.PadValue.min)
            y = pl.assemble(y, padded, [0, 0])
        return y
