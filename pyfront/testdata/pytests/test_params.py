"""Parametrized tests in the form upstream's runtime tests take: the ids
pytest gives them, and the programs their case classes and factories build
with each combination of values."""

import pypto.language as pl
import pytest

PLATFORMS = [pytest.param(p, id=p) for p in ("a2a3sim", "a2a3")]
SHAPES = [(16, 16), (32, 64)]
DTYPES = [pl.FP32, pl.FP16]
_BASE = (8, 16)
WIDTHS = [*_BASE, 32]


class AddCase:
    def __init__(self, rows, cols, dtype=pl.FP32, *, platform=None, config=None):
        self.rows = rows
        self.cols = cols
        self.dtype = dtype
        self.platform = platform

    def get_program(self):
        rows, cols, dtype = self.rows, self.cols, self.dtype

        @pl.program
        class AddProgram:
            @pl.function(type=pl.FunctionType.InCore)
            def add(
                self,
                a: pl.Tensor[[rows, cols], dtype],
                b: pl.Tensor[[rows, cols], dtype],
                c: pl.Out[pl.Tensor[[rows, cols], dtype]],
            ) -> pl.Tensor[[rows, cols], dtype]:
                ta = pl.load(a, [0, 0], [rows, cols])
                tb = pl.load(b, [0, 0], [rows, cols])
                c = pl.store(pl.add(ta, tb), [0, 0], c)
                return c

        return AddProgram


def build_scale(cols, factor):
    @pl.program
    class ScaleProgram:
        @pl.function(type=pl.FunctionType.InCore)
        def scale(
            self,
            a: pl.Tensor[[1, cols], pl.FP32],
            c: pl.Out[pl.Tensor[[1, cols], pl.FP32]],
        ) -> pl.Tensor[[1, cols], pl.FP32]:
            t = pl.load(a, [0, 0], [1, cols])
            c = pl.store(pl.mul(t, factor), [0, 0], c)
            return c

        @pl.function(type=pl.FunctionType.Orchestration)
        def orchestrator(
            self,
            a: pl.Tensor[[1, cols], pl.FP32],
            c: pl.Out[pl.Tensor[[1, cols], pl.FP32]],
        ) -> pl.Tensor[[1, cols], pl.FP32]:
            c = self.scale(a, c)
            return c

    return ScaleProgram


def _expected(a, b):
    return a + b


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("rows,cols", SHAPES)
def test_add_shapes(test_runner, platform, rows, cols):
    test_runner.run(AddCase(rows, cols, platform=platform))


@pytest.mark.parametrize(("rows", "cols"), [(4, 8), pytest.param(2, 16, id="narrow"), (4, 8)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_add_dtypes(test_runner, rows, cols, dtype):
    test_runner.run(AddCase(rows, cols, dtype))


@pytest.mark.parametrize("factor", [2.0, 0.5, -2.5, 1e-05, 1e20, 3])
@pytest.mark.parametrize("cols", range(16, 49, 16))
def test_scale(cols, factor):
    build_scale(cols, factor)


@pytest.mark.parametrize("cols", WIDTHS, ids=["w8", "w16", "w32"])
@pytest.mark.parametrize("flag", [True, False, None, "name"])
def test_ids(cols, flag):
    build_scale(cols, 1.0)


@pytest.mark.parametrize("cols", [16, 16, 32])
def test_duplicates(cols):
    build_scale(cols, 2.0)


@pytest.mark.parametrize("cols", [])
def test_empty(cols):
    build_scale(cols, 2.0)


@pytest.mark.parametrize("cols", [8])
def test_redefined(cols):
    build_scale(cols, 2.0)


def test_no_program(test_runner):
    assert _expected(1, 2) == 3


def test_plain(test_runner, backend_type):
    shape = (2, 32)
    test_runner.run(AddCase(shape[0], shape[1], config=backend_type))


@pytest.mark.parametrize("platform", PLATFORMS)
class TestPair:
    @pytest.mark.parametrize("cols", [8, 64])
    def test_both(self, test_runner, platform, cols):
        test_runner.run(AddCase(1, cols, platform=platform))
        test_runner.run(build_scale(cols, 4.0))

    def helper_not_a_test(self):
        return AddCase(1, 1)


@pytest.mark.parametrize("cols", [24, 40])
def test_redefined(cols):
    build_scale(cols, 3.0)


class TestNotCollected:
    __test__ = False

    def test_hidden(self):
        build_scale(8, 1.0)


class TestWithInit:
    def __init__(self):
        self.cols = 8

    def test_hidden(self):
        build_scale(8, 1.0)
