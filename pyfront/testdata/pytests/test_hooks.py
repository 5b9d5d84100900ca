"""Tests whose parameters come from a pytest_generate_tests hook, the way
upstream's cross-core runtime tests pick their backend: the hook reads a
command-line option through helpers, falls back to a default when it is
not given, and parametrizes only the tests that take the argument. The
hook's marks stack with the decorators' ones, and a class's own hook
runs before the module's."""

import pypto.language as pl
import pytest

_BACKENDS: dict[str, str] = {"a2a3": "Ascend910B", "a5": "Ascend950"}
_DEFAULT = "a2a3"


def _platform(config):
    """The first known platform the option names, else the default."""
    raw = str(config.getoption("--platform", None) or "")
    wanted = [p.strip() for p in raw.split(",") if p.strip()]
    known = tuple(dict.fromkeys(p for p in wanted if p in _BACKENDS))
    if wanted and not known:
        raise pytest.UsageError("--platform names no known platform")
    return known[0] if known else _DEFAULT


def _backend(config):
    name = _platform(config)
    try:
        return _BACKENDS[name]
    except KeyError as exc:
        raise pytest.UsageError(f"no backend for {name!r}") from exc


def pytest_generate_tests(metafunc):
    if "backend" not in metafunc.fixturenames and "rows" not in metafunc.fixturenames:
        return
    platform = _platform(metafunc.config)
    if "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", [_backend(metafunc.config)], ids=[platform])
    if "rows" in metafunc.fixturenames:
        metafunc.parametrize("rows", [2, 4])


def _build_scale(rows, cols):
    @pl.program
    class Scale:
        @pl.function(type=pl.FunctionType.InCore)
        def scale(
            self,
            a: pl.Tensor[[rows, cols], pl.FP32],
            c: pl.Out[pl.Tensor[[rows, cols], pl.FP32]],
        ) -> pl.Tensor[[rows, cols], pl.FP32]:
            t = pl.load(a, [0, 0], [rows, cols])
            t = pl.mul(t, 2.0)
            c = pl.store(t, [0, 0], c)
            return c

    return Scale


def test_backend_only(backend):
    _build_scale(2, 8)


@pytest.mark.parametrize("cols", [8, 16])
def test_rows_and_cols(rows, cols):
    _build_scale(rows, cols)


def test_untouched():
    _build_scale(1, 8)


class TestHooked:
    @pytest.mark.parametrize("cols", [32])
    def test_all(self, backend, rows, cols):
        _build_scale(rows, cols)


class TestOwnHook:
    """A class's own hook runs before the module's."""

    def pytest_generate_tests(self, metafunc):
        if "cols" in metafunc.fixturenames:
            metafunc.parametrize("cols", [8, 24], ids=["narrow", "wide"])

    def test_cols_then_rows(self, rows, cols):
        _build_scale(rows, cols)
