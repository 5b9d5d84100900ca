"""Cases in the form upstream's runtime tests take, for the oracle plugin's
own test: each declares its tensors and computes what it expects with
torch, and the plugin records both for ptorepl to run against."""

import pypto.language as pl
import pytest
import torch
from harness.core.harness import DataType, PTOTestCase, TensorSpec


class AddCase(PTOTestCase):
    def __init__(self, rows):
        super().__init__()
        self.rows = rows

    def define_tensors(self):
        return [
            TensorSpec("a", [self.rows, 16], DataType.FP32, init_value=torch.randn),
            TensorSpec("b", [self.rows, 16], DataType.FP32, init_value=2.0),
            TensorSpec("c", [self.rows, 16], DataType.FP32, is_output=True),
        ]

    def get_program(self):
        rows = self.rows

        @pl.program
        class AddProgram:
            @pl.function(type=pl.FunctionType.InCore)
            def add(
                self,
                a: pl.Tensor[[rows, 16], pl.FP32],
                b: pl.Tensor[[rows, 16], pl.FP32],
                c: pl.Out[pl.Tensor[[rows, 16], pl.FP32]],
            ) -> pl.Tensor[[rows, 16], pl.FP32]:
                ta = pl.load(a, [0, 0], [rows, 16])
                tb = pl.load(b, [0, 0], [rows, 16])
                c = pl.store(pl.add(ta, tb), [0, 0], c)
                return c

            @pl.function(type=pl.FunctionType.Orchestration)
            def orchestrator(
                self,
                a: pl.Tensor[[rows, 16], pl.FP32],
                b: pl.Tensor[[rows, 16], pl.FP32],
                c: pl.Out[pl.Tensor[[rows, 16], pl.FP32]],
            ) -> pl.Tensor[[rows, 16], pl.FP32]:
                c = self.add(a, b, c)
                return c

        return AddProgram

    def compute_expected(self, tensors, params=None):
        tensors["c"][:] = tensors["a"] + tensors["b"]


class ColSumCase(PTOTestCase):
    def define_tensors(self):
        return [
            TensorSpec("x", [8, 32], DataType.FP16, init_value=torch.randn),
            TensorSpec("s", [1, 32], DataType.FP16, is_output=True),
        ]

    def get_program(self):
        @pl.program
        class ColSumProgram:
            @pl.function(type=pl.FunctionType.InCore)
            def colsum(
                self,
                x: pl.Tensor[[8, 32], pl.FP16],
                s: pl.Out[pl.Tensor[[1, 32], pl.FP16]],
            ) -> pl.Tensor[[1, 32], pl.FP16]:
                t = pl.load(x, [0, 0], [8, 32])
                s = pl.store(pl.col_sum(t), [0, 0], s)
                return s

            @pl.function(type=pl.FunctionType.Orchestration)
            def orchestrator(
                self,
                x: pl.Tensor[[8, 32], pl.FP16],
                s: pl.Out[pl.Tensor[[1, 32], pl.FP16]],
            ) -> pl.Tensor[[1, 32], pl.FP16]:
                s = self.colsum(x, s)
                return s

        return ColSumProgram

    def compute_expected(self, tensors, params=None):
        # Row by row in FP16, as the device adds without a scratch tile.
        acc = tensors["x"][0].clone()
        for i in range(1, 8):
            acc = (acc + tensors["x"][i]).half()
        tensors["s"][:] = acc.unsqueeze(0)


def pytest_generate_tests(metafunc):
    """The platform from the command line, as upstream's cross-core tests
    take it (a2a3 when none is given): pytest ids the test with it."""
    if "platform" in metafunc.fixturenames:
        platform = str(metafunc.config.getoption("--platform", None) or "a2a3")
        metafunc.parametrize("platform", [platform], ids=[platform])


@pytest.mark.parametrize("rows", [4, 8])
def test_add(test_runner, rows):
    assert test_runner.run(AddCase(rows)).passed


def test_col_sum(test_runner):
    assert test_runner.run(ColSumCase()).passed


def test_add_on(test_runner, platform):
    assert test_runner.run(AddCase(2)).passed
