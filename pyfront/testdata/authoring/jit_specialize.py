"""@pl.jit entries this file never calls. A PyPTO user calls them from
Python with tensors of their own, and upstream's JIT specializes each call
on its arguments' shapes and dtypes; in ptorepl, mod.Specialize makes that
call from Go. The kernels size their tiles from their tensors' .shape.
"""

import pypto.language as pl


@pl.jit.incore
def scale_add(a: pl.Tensor, b: pl.Tensor, y: pl.Out[pl.Tensor]):
    rows = a.shape[0]
    cols = a.shape[1]
    ta = pl.load(a, [0, 0], [rows, cols])
    tb = pl.load(b, [0, 0], [rows, cols])
    return pl.store(pl.add(ta, pl.mul(tb, 2.0)), [0, 0], y)


@pl.jit
def scaled_sum(a: pl.Tensor, b: pl.Tensor, factor: pl.Scalar[pl.FP32], out: pl.Out[pl.Tensor]):
    """out = (a + 2 b) * factor, factor a specialization constant."""
    s = pl.create_tensor([a.shape[0], a.shape[1]], dtype=a.dtype)
    s = scale_add(a, b, s)
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(s, [0, 0], [a.shape[0], a.shape[1]])
        pl.store(pl.mul(t, factor), [0, 0], out)
    return out


@pl.jit
def shifted(x: pl.Tensor, offset: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor]):
    """y = x + offset: offset's type is written out, x's and y's come from
    the call."""
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [16, 16])
        to = pl.load(offset, [0, 0], [16, 16])
        pl.store(pl.add(tx, to), [0, 0], y)
    return y


@pl.jit
def fresh_sum(a: pl.Tensor, b: pl.Tensor):
    """a + 2 b in a tensor the entry creates and returns: a PyPTO caller
    gets it back from the call, a ptorepl run among its outputs."""
    s = pl.create_tensor([a.shape[0], a.shape[1]], dtype=a.dtype)
    s = scale_add(a, b, s)
    return s
