"""A harness's enums as test parameters: the ids pytest gives them, and a
program sized from a member's property (a packed row vector holds one
32-byte block: 32 // itemsize lanes)."""

import pypto.language as pl
import pytest
from dtypes import DataType, Level, Mode

_PL_DT = {DataType.FP32: pl.FP32, DataType.FP16: pl.FP16, DataType.INT8: pl.INT8}


class RowCase:
    def __init__(self, dtype, rows=4):
        self.dtype = dtype
        self.rows = rows

    @property
    def lanes(self):
        return 32 // self.dtype.torch_dtype.itemsize

    def get_program(self):
        rows, lanes, dtype = self.rows, self.lanes, _PL_DT[self.dtype]

        @pl.program
        class RowProgram:
            @pl.function(type=pl.FunctionType.InCore)
            def copy(
                self,
                a: pl.Tensor[[rows, lanes], dtype],
                c: pl.Out[pl.Tensor[[rows, lanes], dtype]],
            ) -> pl.Tensor[[rows, lanes], dtype]:
                t = pl.load(a, [0, 0], [rows, lanes])
                c = pl.store(t, [0, 0], c)
                return c

        return RowProgram


@pytest.mark.parametrize("dtype", [DataType.FP32, DataType.FP16, DataType.INT8])
def test_rows(test_runner, dtype):
    test_runner.run(RowCase(dtype))


@pytest.mark.parametrize("mode", [Mode.FAST, Mode.EXACT])
@pytest.mark.parametrize("level", [Level.LOW, Level.HIGH])
def test_named_by_value(test_runner, level, mode):
    rows = 2 if mode.value == "fast" else level.value
    high = 8 if mode is Mode.EXACT and level.name == "HIGH" else rows
    test_runner.run(RowCase(DataType.FP32, high))
