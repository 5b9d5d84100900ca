"""Program builders a project's tests import: a kernel, a factory and a
program class, with constants of this file that they read."""

import pypto.language as pl

ROWS = 8
NEG = -1.0


@pl.function(type=pl.FunctionType.InCore)
def negate_rows(x: pl.Tensor[[ROWS, 16], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, 16], pl.FP32]]) -> pl.Tensor[[ROWS, 16], pl.FP32]:
    t = pl.load(x, [0, 0], [ROWS, 16])
    return pl.store(pl.mul(t, NEG), [0, 0], y)


def make_shift(delta: float):
    @pl.function(type=pl.FunctionType.InCore)
    def shift(x: pl.Tensor[[ROWS, 16], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, 16], pl.FP32]]) -> pl.Tensor[[ROWS, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [ROWS, 16])
        return pl.store(pl.add(t, delta), [0, 0], y)

    return shift


# A kernel a factory makes, bound at module level, as upstream's
# multi-config paged attention binds its kernels.
shift_one = make_shift(1.0)


def scale_shape(*, wide: bool = False) -> tuple[int, float]:
    """A plain helper: the columns and factor a wide or narrow case uses."""
    if wide:
        return 64, 3.0
    return 32, 3.0


def build_scale(cols: int, factor: float):
    @pl.program
    class Scale:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[ROWS, cols], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, cols], pl.FP32]]) -> pl.Tensor[[ROWS, cols], pl.FP32]:
            t = pl.load(x, [0, 0], [ROWS, cols])
            return pl.store(pl.mul(t, factor), [0, 0], y)

        @pl.function(type=pl.FunctionType.Orchestration)
        def orchestrator(self, x: pl.Tensor[[ROWS, cols], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, cols], pl.FP32]]) -> pl.Tensor[[ROWS, cols], pl.FP32]:
            y = self.kernel(x, y)
            return y

    return Scale


@pl.program
class Doubler:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[ROWS, 16], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, 16], pl.FP32]]) -> pl.Tensor[[ROWS, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [ROWS, 16])
        return pl.store(pl.add(t, t), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(self, x: pl.Tensor[[ROWS, 16], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, 16], pl.FP32]]) -> pl.Tensor[[ROWS, 16], pl.FP32]:
        y = self.kernel(x, y)
        return y
