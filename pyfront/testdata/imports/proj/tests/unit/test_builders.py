"""A test module two directories below its project's root, importing the
project's builders by their module path, as pytest (its rootdir on
sys.path) lets it."""

import pypto.language as pl
import pytest
from harness.core.harness import PLATFORMS, DataType, PTOTestCase
from kernels.builders import Doubler, build_scale, make_shift, negate_rows, scale_shape, shift_one
from models.tiny import Tiny

NEG = 5.0  # this file's: the imported kernel reads its own file's NEG

# The harness's dtypes are PyPTO's, as upstream's harness names them.
_FACTORS = {DataType.FP32: 1.0, DataType.FP16: 0.5}


class ScaleCase(PTOTestCase):
    __test__ = False

    def __init__(self, cols: int = 32, factor: float = 3.0):
        super().__init__()
        self.cols = cols
        self.factor = factor * _FACTORS[DataType.FP32]

    def get_program(self):
        return build_scale(self.cols, self.factor)


class WideScaleCase(PTOTestCase):
    """The imported file's plain helper gives the shape, as a tuple."""

    def get_program(self):
        cols, factor = scale_shape(wide=True)
        return build_scale(cols, factor)


class DoublerCase(PTOTestCase):
    __test__ = False

    def get_program(self):
        return Doubler


class NegateCase(PTOTestCase):
    __test__ = False

    def get_program(self):
        @pl.program
        class Negate:
            @pl.function(type=pl.FunctionType.Orchestration)
            def orchestrator(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
                y = negate_rows(x, y)
                return y

        return Negate


class ShiftTwoCase(PTOTestCase):
    """A kernel the imported factory makes here, in get_program."""

    __test__ = False

    def get_program(self):
        shift_two = make_shift(2.0)

        @pl.program
        class ShiftTwo:
            @pl.function(type=pl.FunctionType.Orchestration)
            def orchestrator(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
                y = shift_two(x, y)
                return y

        return ShiftTwo


class ShiftThreeCase(PTOTestCase):
    """The imported factory's kernel is the program."""

    __test__ = False

    def get_program(self):
        return make_shift(3.0)


class TinyCase(PTOTestCase):
    __test__ = False

    def get_program(self):
        return Tiny


def make_halve():
    @pl.function(type=pl.FunctionType.InCore)
    def halve(x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [8, 16])
        return pl.store(pl.mul(t, 0.5), [0, 0], y)

    return halve


halve = make_halve()


class ShiftThenHalveCase(PTOTestCase):
    """An imported factory-made kernel and one of this file, both bound at
    module level."""

    __test__ = False

    def get_program(self):
        @pl.program
        class ShiftThenHalve:
            @pl.function(type=pl.FunctionType.Orchestration)
            def orchestrator(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
                t = pl.create_tensor([8, 16], dtype=pl.FP32)
                t = shift_one(x, t)
                y = halve(t, y)
                return y

        return ShiftThenHalve


@pytest.mark.parametrize("cols", [16, 64])
def test_scale(test_runner, cols):
    assert test_runner.run(ScaleCase(cols)).passed


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("factor", [2.0, -0.5])
def test_scale_on(test_runner, platform, factor):
    test_runner.run(ScaleCase(16, factor))
