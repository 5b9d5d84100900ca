# Kernels written the way PyPTO's system tests write them: PTOTestCase
# subclasses whose get_program builds the program, parameterised through
# __init__, with the harness's tensors and torch reference beside it.
"""Scaling kernels as harness test cases."""

from typing import Any

import pypto.language as pl
import pytest
import torch
from harness.core.harness import DataType, PTOTestCase, TensorSpec
from pypto.pypto_core.passes import MemoryPlanner
from pypto.runtime.runner import RunConfig

_PL_DT = {DataType.FP32: pl.FP32, DataType.FP16: pl.FP16}
_BASE_FACTORS = {"double": 2.0}
_FACTORS = {**_BASE_FACTORS, "triple": 3.0}


@pl.program
class Negate:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        out = pl.store(pl.mul(t, -1.0), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(self, a: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        out = self.kernel(a, out)
        return out


def build_rows(rows: int):
    @pl.program
    class AddOne:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, a: pl.Tensor[[rows, 32], pl.FP32], out: pl.Out[pl.Tensor[[rows, 32], pl.FP32]]) -> pl.Tensor[[rows, 32], pl.FP32]:
            t = pl.load(a, [0, 0], [rows, 32])
            out = pl.store(pl.add(t, 1.0), [0, 0], out)
            return out

        @pl.function(type=pl.FunctionType.Orchestration)
        def orchestrator(self, a: pl.Tensor[[rows, 32], pl.FP32], out: pl.Out[pl.Tensor[[rows, 32], pl.FP32]]) -> pl.Tensor[[rows, 32], pl.FP32]:
            out = self.kernel(a, out)
            return out

    return AddOne


class _ScaleBase(PTOTestCase):
    """Shapes and dtype; no program of its own."""

    __test__ = False
    op_name = ""

    def __init__(self, *, m=16, n=32, valid_shape=None, dtype=DataType.FP32, out_m=None, config=None, planner=MemoryPlanner.PTOAS):
        super().__init__(config, memory_planner=planner)
        self._m, self._n, self._valid, self._dtype = m, n, valid_shape, dtype
        self._out_m = out_m or m
        if config is not None:
            self.config.rtol = 1e-5
        if torch.cuda.is_available():
            self._device = "cuda"

    def define_tensors(self) -> list[TensorSpec]:
        return [
            TensorSpec("a", [self._m, self._n], self._dtype, init_value=torch.randn),
            TensorSpec("out", [self._out_m, self._n], self._dtype, is_output=True, init_value=torch.zeros),
        ]


class ScaleCase(_ScaleBase):
    op_name = "scale"

    def __init__(self, factor_name="double", **kw):
        super().__init__(**kw)
        self._factor = _FACTORS[factor_name]

    def get_name(self) -> str:
        return f"{self.op_name}_{self._m}x{self._n}"

    def get_program(self) -> Any:
        m, n, om = self._m, self._n, self._out_m
        vm, vn = list(self._valid) if self._valid else [m, n]
        dt = _PL_DT[self._dtype]
        factor = self._factor
        wide = self._dtype is not DataType.FP16 and "double" in _FACTORS

        @pl.program
        class ScaleProgram:
            @pl.function(type=pl.FunctionType.InCore)
            def kernel(self, a: pl.Tensor[[m, n], dt], out: pl.InOut[pl.Tensor[[om, n], dt]]) -> pl.Tensor[[om, n], dt]:
                t = pl.load(a, [0, 0], [m, n], valid_shape=[vm, vn])
                s = pl.mul(t, factor)
                out = pl.store(s, [0, 0], out)
                return out

            @pl.function(type=pl.FunctionType.Orchestration)
            def orchestrator(self, a: pl.Tensor[[m, n], dt], out: pl.InOut[pl.Tensor[[om, n], dt]]) -> pl.Tensor[[om, n], dt]:
                out = self.kernel(a, out)
                return out

        if not wide:
            raise ValueError("FP16 scaling is not covered")
        return ScaleProgram

    def compute_expected(self, tensors, params=None):
        tensors["out"][: self._m] = tensors["a"] * self._factor


class NarrowScaleCase(ScaleCase):
    """Only the top-left 8 x 16 of a 16 x 32 load, stored into 32 rows."""

    def __init__(self, **kw):
        super().__init__("triple", valid_shape=(8, 16), out_m=32, **kw)


class NegateCase(PTOTestCase):
    def get_program(self) -> Any:
        return Negate


class TableCase(PTOTestCase):
    program = Negate

    def get_program(self) -> Any:
        return self.program


class RowsCase(PTOTestCase):
    def __init__(self, rows: int, *, platform=None):
        super().__init__(platform=platform)
        self.rows = rows

    def get_program(self) -> Any:
        return build_rows(self.rows)

    def _padded(self, extra: int = 0) -> int:
        if extra:
            return self.rows + extra
        return self.rows


class PaddedRowsCase(RowsCase):
    """Its rows come from a helper method of its base."""

    def get_program(self) -> Any:
        return build_rows(self._padded(extra=8))


class DeviceCase(_ScaleBase):
    def get_program(self) -> Any:
        where = self._device
        return build_rows(where)


class DoubledRowsCase(RowsCase):
    """Its rows come from a @property, read as an attribute."""

    @property
    def doubled(self) -> int:
        if self.rows > 64:
            return self.rows
        return self.rows * 2

    def get_program(self) -> Any:
        return build_rows(self.doubled)


@pytest.mark.parametrize("factor_name", ["double", "triple"])
def test_scale(test_runner, factor_name):
    result = test_runner.run(ScaleCase(factor_name))
    assert result.passed


_BUILDERS = {"rows": build_rows}


class TableBuilderCase(PTOTestCase):
    """Its program comes from a table of factories; its run configuration
    is harness Python the reader carries without running."""

    def __init__(self, kind: str, rows: int, config=RunConfig(rtol=1e-3), platform=None):
        super().__init__(config, platform=platform)
        self.kind = kind
        self.rows = rows
        self.config = config

    def get_program(self) -> Any:
        return _BUILDERS[self.kind](self.rows)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
@pytest.mark.parametrize("rows", [4, 12])
def test_table(test_runner, rows, dtype):
    test_runner.run(TableBuilderCase("rows", rows, config=RunConfig(dtype=dtype)))
