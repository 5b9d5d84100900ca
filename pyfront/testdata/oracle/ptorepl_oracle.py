"""A pytest plugin that turns upstream PyPTO's runtime tests into value oracles.

Upstream's tests under tests/st build a test case (a PTOTestCase) and hand it
to a ``test_runner`` fixture, which compiles its program with PyPTO, runs it on
an NPU or simulator, and compares the outputs with what the case's
``compute_expected`` computes with torch. ptorepl builds the same programs from
the same files (pyfront), so only the inputs and the expected outputs are
needed from Python. This plugin's ``test_runner`` makes them, with real torch,
as upstream's harness does (a TensorSpec's init_value: None is zeros, a number
fills, a tensor is cast, torch.randn/rand/zeros/ones are called with the shape
and dtype, any other callable is called with no arguments), and writes them to
the directory ``--oracle-out`` names: one directory per run with meta.json and
each tensor's raw bytes, in.NAME before compute_expected and out.NAME after it.
The Go test (pyfront's TestUpstreamOracle) runs the programs on those inputs
and compares.

PyPTO itself is not installed here: every ``pypto`` module the test files
import is a stand-in whose attributes, calls and subscripts give more stand-ins,
so the @pl.program classes inside get_program are defined without meaning
anything. Only RunConfig keeps what the plugin reads (rtol, atol), and
pypto.runtime's TensorSpec keeps its fields for the tests that read them.

Run with --noconftest (upstream's conftest needs the real PyPTO), with the
upstream tests/st directory on sys.path (for its harness package) and
-p ptorepl_oracle.
"""

import importlib
import importlib.abc
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import tempfile
import types


class _Stand:
    """Anything PyPTO: every use gives another stand-in. The same name gives
    the same stand-in, so enum members compare equal and key dicts."""

    def __new__(cls, name="pypto", *args, **kwargs):
        s = _stands.get(name)
        if s is None:
            s = object.__new__(cls)
            object.__setattr__(s, "_name", name)
            _stands[name] = s
        return s

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return _Stand(f"{self._name}.{attr}")

    def __call__(self, *args, **kwargs):
        # A decorator keeps what it decorates (a class or function stays
        # itself), so test files can still call and subclass what they define.
        if len(args) == 1 and not kwargs and (isinstance(args[0], type) or callable(args[0])) and not isinstance(args[0], _Stand):
            return args[0]
        return _Stand(f"{self._name}()")

    def __getitem__(self, key):
        return _Stand(f"{self._name}[]")

    def __mro_entries__(self, bases):
        return (object,)

    def __iter__(self):
        return iter(())

    def __or__(self, other):
        return self

    __ror__ = __or__

    def __repr__(self):
        return self._name


_stands = {}


class _RunConfig:
    """pypto.runtime.runner.RunConfig: the tolerances the comparison uses."""

    def __init__(self, *args, rtol=1e-5, atol=1e-5, **kwargs):
        self.rtol = rtol
        self.atol = atol
        for k, v in kwargs.items():
            setattr(self, k, v)

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return None


class _DistributedConfig:
    """pypto's DistributedConfig: the devices (so the rank count) a run uses."""

    def __init__(self, *args, device_ids=(0,), **kwargs):
        self.device_ids = list(device_ids)


class _RuntimeTensorSpec:
    """pypto.runtime's TensorSpec, which example modules build specs with and
    tests read back (spec.name, spec.shape, spec.dtype, ...)."""

    def __init__(self, name, shape, dtype, init_value=None, is_output=False):
        self.name = name
        self.shape = list(shape)
        self.dtype = dtype
        self.init_value = init_value
        self.is_output = is_output


class _StandModule(types.ModuleType):
    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        if attr == "RunConfig":
            return _RunConfig
        if attr == "DistributedConfig":
            return _DistributedConfig
        if self.__name__.startswith("pypto.runtime") and attr == "TensorSpec":
            return _RuntimeTensorSpec
        if self.__name__ == "pypto.ir" and attr == "compile":
            return _compile
        if self.__name__ == "pypto" and attr in _SUBMODULES:
            # from pypto import ir: the submodule, whatever was imported before.
            return importlib.import_module(f"pypto.{attr}")
        return _Stand(f"{self.__name__}.{attr}")


_SUBMODULES = ("ir", "language", "runtime", "backend", "pypto_core")


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname == "pypto" or fullname.startswith("pypto."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        m = _StandModule(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _Finder())

import pytest  # noqa: E402
import torch  # noqa: E402


# Debian's torch (1.13) lacks some CPU kernels for FP16 and BF16 that the
# torch upstream tests with has (log, sqrt, prod, relu's clamp, eye). Newer
# torch computes those in FP32 and rounds the result back; so does this
# fallback, used only when the op itself refuses the dtype.
_LOW = (torch.float16, torch.bfloat16)


def _widening(fn):
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except RuntimeError as e:
            if "not implemented for" not in str(e):
                raise
        low = [a.dtype for a in args if isinstance(a, torch.Tensor) and a.dtype in _LOW]
        if kwargs.get("dtype") in _LOW:
            low.append(kwargs["dtype"])
            kwargs = dict(kwargs, dtype=torch.float32)
        if not low:
            raise
        wide = [a.float() if isinstance(a, torch.Tensor) and a.dtype in _LOW else a for a in args]
        out = fn(*wide, **kwargs)
        return out.to(low[0]) if isinstance(out, torch.Tensor) and out.is_floating_point() else out

    return call


for _name in ("log", "sqrt", "rsqrt", "exp", "prod", "clamp", "clamp_min", "relu", "sin", "cos", "eye"):
    if hasattr(torch, _name):
        setattr(torch, _name, _widening(getattr(torch, _name)))
    if hasattr(torch.Tensor, _name):
        setattr(torch.Tensor, _name, _widening(getattr(torch.Tensor, _name)))


# Newer torch gives a dtype's size as dtype.itemsize; 1.13 only through a
# tensor's element_size(). torch.dtype is an immutable C type, so the
# property goes into its dict directly (CPython) and the type's attribute
# cache is told.
if not hasattr(torch.float32, "itemsize"):
    import ctypes
    import gc

    gc.get_referents(torch.dtype.__dict__)[0]["itemsize"] = property(lambda d: torch.empty((), dtype=d).element_size())
    ctypes.pythonapi.PyType_Modified(ctypes.py_object(torch.dtype))


# Newer torch also indexes with any integer tensor; 1.13 only with int64.
def _index_key(key):
    if isinstance(key, torch.Tensor) and not key.is_floating_point() and key.dtype not in (torch.int64, torch.uint8, torch.bool):
        return key.long()
    if isinstance(key, tuple):
        return tuple(_index_key(k) for k in key)
    return key


_getitem, _setitem = torch.Tensor.__getitem__, torch.Tensor.__setitem__
torch.Tensor.__getitem__ = lambda self, key: _getitem(self, _index_key(key))
torch.Tensor.__setitem__ = lambda self, key, value: _setitem(self, _index_key(key), value)


# Upstream's distributed tests call the program themselves:
# compiled = ir.compile(program, distributed_config=DistributedConfig(
# device_ids=...)), then compiled(inputs, outputs), then assert on the
# outputs with torch. ir.compile's stand-in returns a callable that runs
# the program on ptorepl: it writes the call's tensors to a directory,
# runs the Go test binary named by PTOREPL_ORACLE_RUNNER (which builds the
# same test's program from the same file, compiles it and runs it at that
# many ranks) and copies the tensors it wrote back into the caller's, in
# place, as the device would fill them. The test's own asserts then judge.
_NAMES = {
    torch.float32: "FP32",
    torch.float16: "FP16",
    torch.bfloat16: "BF16",
    torch.int64: "INT64",
    torch.int32: "INT32",
    torch.int16: "INT16",
    torch.int8: "INT8",
    torch.uint8: "UINT8",
    torch.bool: "BOOL",
}

_TORCH = {v: k for k, v in _NAMES.items()}

_current = {"item": None, "compiles": 0, "calls": 0}


class _Compiled:
    def __init__(self, ranks, index, program):
        self.ranks = ranks
        self.index = index
        # A @pl.program class stays itself under the stand-in decorator:
        # its name finds a module-level program the test compiles directly.
        self.program = program.__name__ if isinstance(program, type) else ""

    def __call__(self, *tensors, **kwargs):
        runner = os.environ.get("PTOREPL_ORACLE_RUNNER")
        if not runner:
            raise RuntimeError("PTOREPL_ORACLE_RUNNER is unset: no ptorepl to run the program on")
        item = _current["item"]
        _current["calls"] += 1
        d = tempfile.mkdtemp(prefix="oracle-run-")
        try:
            meta = {
                "file": str(item.path),
                "test": item.nodeid.split("::", 1)[1],
                "compile": self.index,
                "program": self.program,
                "ranks": self.ranks,
                "tensors": [],
            }
            for i, t in enumerate(tensors):
                if not isinstance(t, torch.Tensor):
                    raise TypeError(f"argument {i} of the compiled program is {type(t).__name__}, not a tensor")
                meta["tensors"].append({"dtype": _NAMES[t.dtype], "shape": list(t.shape)})
                with open(os.path.join(d, f"in.{i}"), "wb") as f:
                    f.write(_raw(t))
            with open(os.path.join(d, "meta.json"), "w") as f:
                json.dump(meta, f)
            env = dict(os.environ, PTOREPL_ORACLE_RUN=d)
            done = subprocess.run([runner], env=env, capture_output=True, text=True, timeout=300)
            if done.returncode != 0:
                msg = ""
                if os.path.exists(os.path.join(d, "error.txt")):
                    with open(os.path.join(d, "error.txt")) as f:
                        msg = f.read()
                raise RuntimeError("ptorepl: " + (msg or done.stdout + done.stderr).strip())
            for i, t in enumerate(tensors):
                with open(os.path.join(d, f"out.{i}"), "rb") as f:
                    t.copy_(_tensor(f.read(), t.dtype, t.shape))
            # Out tensors the call left out come back as its result.
            rets = sorted((n for n in os.listdir(d) if n.startswith("ret.")), key=lambda n: int(n.split(".")[1]))
            made = []
            for n in rets:
                _, _, dtype, shape = n.split(".", 3)
                with open(os.path.join(d, n), "rb") as f:
                    made.append(_tensor(f.read(), _TORCH[dtype], [int(x) for x in shape.split("x")] if shape else []))
        finally:
            shutil.rmtree(d, ignore_errors=True)
        if not made:
            return None
        return made[0] if len(made) == 1 else tuple(made)


def _tensor(raw, dtype, shape):
    wide = torch.uint8 if dtype == torch.bool else dtype
    raw = bytearray(raw)
    got = torch.frombuffer(raw, dtype=wide) if raw else torch.empty(0, dtype=wide)
    return got.reshape(shape).to(dtype)


def _compile(program, *args, distributed_config=None, **kwargs):
    _current["compiles"] += 1
    ranks = len(distributed_config.device_ids) if isinstance(distributed_config, _DistributedConfig) else 1
    return _Compiled(ranks, _current["compiles"], program)


def pytest_addoption(parser):
    parser.addoption("--oracle-out", default=None, help="directory the inputs and expected outputs go to")
    parser.addoption("--platform", default="a2a3", help="the platform variant to keep, as upstream's conftest")


def pytest_configure(config):
    config.addinivalue_line("markers", "platforms(*ids): the platforms a test runs on")


def pytest_collection_modifyitems(config, items):
    # As upstream's conftest with its default --platform: keep the variants
    # of the one platform (and tests with no platform parameter), within a
    # test's own @pytest.mark.platforms list.
    want = config.getoption("--platform")
    keep, drop = [], []
    for item in items:
        marker = next(item.iter_markers(name="platforms"), None)
        allowed = set(marker.args) if marker is not None else {want}
        callspec = getattr(item, "callspec", None)
        platform = callspec.params.get("platform") if callspec else None
        if want in allowed and platform in (None, want):
            keep.append(item)
        else:
            drop.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _create(spec):
    dtype = spec.dtype.torch_dtype
    init = spec.init_value
    if init is None:
        return torch.zeros(spec.shape, dtype=dtype)
    if isinstance(init, (int, float)):
        return torch.full(spec.shape, init, dtype=dtype)
    if isinstance(init, torch.Tensor):
        return init.to(dtype=dtype)
    if init in (torch.randn, torch.rand, torch.zeros, torch.ones):
        return init(spec.shape, dtype=dtype)
    if callable(init):
        return torch.as_tensor(init(), dtype=dtype)
    raise TypeError(f"unsupported init_value {type(init)!r} for tensor {spec.name!r}")


def _raw(t):
    t = t.detach().contiguous()
    if t.dtype == torch.bool:
        t = t.to(torch.uint8)
    return t.view(torch.uint8).numpy().tobytes() if t.numel() else b""


# The oracle's cap on one case's tensors: the largest upstream cases (paged
# attention over 8 Mi rows, 800 MiB and more) would write gigabytes for a
# run the simulator takes minutes over; the next largest (64 MiB) runs in
# seconds.
_MAX_BYTES = 72 << 20


def _numel(shape):
    n = 1
    for d in shape:
        n *= int(d)
    return n


class _Result:
    passed = True
    error = None


class _Runner:
    def __init__(self, out):
        self.config = _RunConfig()
        self.out = out
        self.count = 0
        self.item = None
        self.runs = 0

    def run(self, case, *args, **kwargs):
        self.runs += 1
        self.count += 1
        d = os.path.join(self.out, f"{self.count:05d}")
        os.makedirs(d)
        meta = {
            "nodeid": self.item.nodeid,
            "file": str(self.item.path),
            "test": self.item.nodeid.split("::", 1)[1],
            "run": self.runs,
            "case": type(case).__name__,
            "rtol": case.config.rtol,
            "atol": case.config.atol,
            "tensors": [],
        }
        try:
            if case.scalar_specs:
                raise NotImplementedError("the case defines scalars (define_scalars)")
            specs = case.tensor_specs
            size = sum(_numel(s.shape) * torch.empty((), dtype=s.dtype.torch_dtype).element_size() for s in specs)
            if size > _MAX_BYTES:
                raise NotImplementedError(f"its tensors take {size >> 20} MiB, over the oracle's {_MAX_BYTES >> 20} MiB")
            data = {s.name: _create(s) for s in specs}
            for s in specs:
                meta["tensors"].append(
                    {
                        "name": s.name,
                        "dtype": s.dtype.name,
                        "shape": list(data[s.name].shape),
                        "output": bool(s.is_output),
                    }
                )
                with open(os.path.join(d, "in." + s.name), "wb") as f:
                    f.write(_raw(data[s.name]))
            case.compute_expected(data)
            for s in specs:
                if s.is_output:
                    t = data[s.name].to(dtype=s.dtype.torch_dtype)
                    with open(os.path.join(d, "out." + s.name), "wb") as f:
                        f.write(_raw(t))
        except Exception as e:  # recorded for the Go side to report
            meta["error"] = f"{type(e).__name__}: {e}"
        with open(os.path.join(d, "meta.json"), "w") as f:
            json.dump(meta, f)
        return _Result()


@pytest.fixture(scope="session")
def test_config():
    return _RunConfig()


@pytest.fixture(scope="session")
def test_runner(request):
    return _Runner(request.config.getoption("--oracle-out"))


@pytest.fixture(scope="session")
def device_ids():
    return list(range(8))


def pytest_runtest_setup(item):
    _current.update(item=item, compiles=0, calls=0)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    out = item.config.getoption("--oracle-out")
    # One line per test phase that ran a compiled program (or failed in
    # one): its outcome and, on failure, the exception.
    if _current["calls"] and out and (rep.when == "call" or rep.failed):
        line = {"nodeid": item.nodeid, "file": str(item.path), "test": item.nodeid.split("::", 1)[1], "when": rep.when, "outcome": rep.outcome}
        if rep.failed and call.excinfo is not None:
            line["error"] = call.excinfo.typename + ": " + str(call.excinfo.value)[:2000]
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "runs.jsonl"), "a") as f:
            f.write(json.dumps(line) + "\n")


@pytest.fixture(autouse=True)
def _oracle_item(request):
    # The runner learns which test it serves, and every test starts from
    # the same seed, so a run's inputs do not depend on what ran before.
    if "test_runner" in request.fixturenames:
        r = request.getfixturevalue("test_runner")
        r.item, r.runs = request.node, 0
    torch.manual_seed(0)
    yield
