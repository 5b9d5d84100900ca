"""Test cases reached the ways upstream's runtime tests reach them: ids
written as f-strings (with format specs) or given by a function, a
parameter that names the case class (op_cls) with ids from its class
attribute, a case that mixes in a class before the one with get_program,
a helper def that returns a case, a case handed its program as a
lambda it calls through self, and one that builds it with a
@staticmethod. The shapes differ, so each program does."""

import pypto.language as pl
import pytest

_ROWS = [2, 4]
_SCALES = [0.5, -2.0, 1.0]


def _build_copy(rows, cols=8):
    @pl.program
    class BuiltCopy:
        @pl.function(type=pl.FunctionType.InCore)
        def copy(
            self,
            a: pl.Tensor[[rows, cols], pl.FP32],
            c: pl.Out[pl.Tensor[[rows, cols], pl.FP32]],
        ) -> pl.Tensor[[rows, cols], pl.FP32]:
            t = pl.load(a, [0, 0], [rows, cols])
            c = pl.store(t, [0, 0], c)
            return c

    return BuiltCopy


class CopyCase:
    op_name = "copy"

    def __init__(self, rows=2, cols=8):
        self.rows = rows
        self.cols = cols

    def get_program(self):
        return _build_copy(self.rows, self.cols)


class WideCopyCase(CopyCase):
    op_name = "wide_copy"

    def __init__(self, rows=2):
        super().__init__(rows, 16)


class StaticBuilderCase:
    """get_program calls a @staticmethod of its own class that builds the
    program (no self among its parameters)."""

    def __init__(self, rows=2):
        self.rows = rows

    @staticmethod
    def _build(rows, cols=24):
        return _build_copy(rows, cols)

    def get_program(self):
        return self._build(self.rows + 1)


class TallMixin:
    def get_name(self):
        return f"tall_{self.rows}"


class TallCopyCase(TallMixin, CopyCase):
    pass


def _tall_case(rows):
    return TallCopyCase(rows * 2)


class BuilderCase:
    def __init__(self, builder):
        self._builder = builder

    def get_program(self):
        return self._builder()


def _lambda_case(rows):
    scale = 3
    return BuilderCase(lambda: _build_copy(rows * scale))


def _lambda_args_case(rows):
    build = lambda r, cols=16: _build_copy(r, cols=cols)  # noqa: E731
    return BuilderCase(lambda: build(rows, cols=32))


@pytest.mark.parametrize("rows", _ROWS, ids=[f"r{r:02d}" for r in _ROWS])
def test_fstring_ids(test_runner, rows):
    test_runner.run(CopyCase(rows))


@pytest.mark.parametrize("scale", _SCALES, ids=[f"s{s}" for s in _SCALES])
@pytest.mark.parametrize("rows,cols", [(2, 8), (4, 16)], ids=[f"{r}x{c:<3}|{c:>4}|{c:^5}|{r:+}|{r * 1.5:.2f}|{r!r}|{'x'!r}" for r, c in [(2, 8), (4, 16)]])
def test_format_specs(test_runner, rows, cols, scale):
    test_runner.run(CopyCase(rows, cols))


@pytest.mark.parametrize("op_cls", [CopyCase, WideCopyCase], ids=[c.op_name for c in [CopyCase, WideCopyCase]])
@pytest.mark.parametrize("rows", _ROWS)
def test_case_class_param(test_runner, op_cls, rows):
    test_runner.run(op_cls(rows=rows))


def test_mixin(test_runner):
    test_runner.run(TallCopyCase(4))


@pytest.mark.parametrize("rows", _ROWS)
def test_helper(test_runner, rows):
    test_runner.run(_tall_case(rows))


@pytest.mark.parametrize("rows", _ROWS)
def test_lambda(test_runner, rows):
    test_runner.run(_lambda_case(rows))


def test_lambda_args(test_runner):
    test_runner.run(_lambda_args_case(2))


def _tag(rows):
    return {2: "two", 4: "four"}.get(rows)


def _tag_some(cols):
    if cols == 8:
        return "narrow"
    return None


@pytest.mark.parametrize("rows", _ROWS, ids=_tag)
@pytest.mark.parametrize("rows2,cols", [(2, 8), (4, 16)], ids=_tag_some)
def test_id_function(test_runner, rows, rows2, cols):
    test_runner.run(CopyCase(rows, cols))


def test_static_builder(test_runner):
    test_runner.run(StaticBuilderCase(5))
