"""@pl.jit kernels sized by the pytest functions that call them, as
upstream's own tests are written: a test class's methods (the class
decorated or not), a decorated test function, torch.randint and dtype
conversions of sample tensors, and a kernel that reads its tile size off
its parameter's shape."""

import pypto.language as pl
import pytest
import torch


@pl.jit
def add_one(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        M, N = x.shape
        t = pl.load(x, [0, 0], [M, N])
        pl.store(pl.add(t, 1), [0, 0], out)
    return out


@pl.jit
def double_half(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 32])
        pl.store(pl.add(t, t), [0, 0], out)
    return out


class TestKernels:
    def test_add_one(self, test_config):
        x = torch.randint(-100, 100, (8, 16), dtype=torch.int32)
        out = torch.zeros((8, 16), dtype=torch.int32)
        add_one(x, out, config=test_config)

    @pytest.mark.parametrize("scale", [0.5])
    def test_double_half(self, scale):
        x = (torch.randn(16, 32) * scale).half()
        out = torch.zeros(16, 32).half()
        double_half(x, out)


@pl.jit
def negate(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    pl.dump_tag(x)  # a debug-dump hint: no effect on what runs
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [4, 64])
        pl.store(pl.neg(t), [0, 0], out)
    return out


@pytest.mark.platforms("a2a3")
class TestDecoratedClass:
    def test_negate(self):
        x = torch.randn(4, 64, dtype=torch.float32)
        out = torch.zeros((4, 64), dtype=torch.float32)
        negate(x, out)


@pl.jit
def scale_rows(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [2, 32])
        pl.store(pl.mul(t, 3.0), [0, 0], out)
    return out


def _make_inputs():
    x = torch.randn(2, 32, dtype=torch.float32)
    out = torch.zeros((2, 32), dtype=torch.float32)
    return x, out


def test_scale_rows():
    x, out = _make_inputs()
    scale_rows(x, out)
