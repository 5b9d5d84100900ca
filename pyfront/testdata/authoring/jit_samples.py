"""@pl.jit functions in the style of PyPTO's beginner examples: their
tensor parameters are bare pl.Tensor annotations, which upstream's JIT
specializes on the tensors a call passes. ptorepl reads those tensors'
shapes and dtypes off the torch constructors of the __main__ block
(without running it); a kernel with bare parameters is specialized at
its first call inside the program.
"""

import pypto.language as pl
import torch

ROWS = 64
COLS = 32


@pl.jit
def add_scaled(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [ROWS, COLS])
        tb = pl.load(b, [0, 0], [ROWS, COLS])
        pl.store(pl.mul(pl.add(ta, tb), 2.0), [0, 0], c)
    return c


@pl.jit.incore
def double_it(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    t = pl.load(x, [0, 0], [ROWS, COLS])
    return pl.store(pl.add(t, t), [0, 0], y)


@pl.jit
def twice(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    y = double_it(x, y)
    return y


@pl.jit
def activations(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    """relu(sigmoid(x) - 0.5) + log(sqrt(|x| + 1)), one unary op at a time."""
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        s = pl.recip(pl.add(pl.exp(pl.neg(t)), 1.0))
        r = pl.relu(pl.sub(s, 0.5))
        q = pl.sqrt(pl.add(pl.abs(t), 1.0))
        pl.store(pl.add(r, pl.log(q)), [0, 0], y)
    return y


@pl.jit
def row_softmax(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    """softmax(x) per row, plus the row's minimum, times the row's sum of
    exponentials: every row reduction and row broadcast once."""
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        tmp = pl.create_tile([ROWS, COLS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        mx: pl.Tile[[ROWS, 1], pl.FP32] = pl.row_max(t, tmp)
        mn = pl.row_min(t, tmp)
        e = pl.exp(pl.row_expand_sub(t, mx))
        s = pl.row_sum(e, tmp)
        p = pl.row_expand_div(e, s)
        q = pl.row_expand_add(p, mn)
        pl.store(pl.row_expand_mul(q, s), [0, 0], y)
    return y


@pl.jit
def col_ops(x: pl.Tensor, w: pl.Tensor, y: pl.Out[pl.Tensor]):
    """Rows of x combined with the row w, every column broadcast once, and
    a reshape there and back (which moves no data)."""
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        v = pl.load(w, [0, 0], [1, COLS])
        a = pl.col_expand_div(pl.col_expand_sub(pl.col_expand_mul(pl.col_expand_add(t, v), v), v), v)
        b = pl.add(a, pl.col_expand(t, v))
        flat = pl.reshape(b, [COLS, ROWS])
        pl.store(pl.reshape(flat, [ROWS, COLS]), [0, 0], y)
    return y


@pl.jit
def split_k(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]):
    """a @ b on the cube, K in two halves: loads to Mat, moves to Left and
    Right, matmul into an Acc tile, then matmul_acc adds the second half."""
    with pl.at(level=pl.Level.CORE_GROUP):
        a0 = pl.load(a, [0, 0], [ROWS, 16], target_memory=pl.MemorySpace.Mat)
        b0 = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul(pl.move(a0, target_memory=pl.MemorySpace.Left), pl.move(b0, target_memory=pl.MemorySpace.Right))
        a1 = pl.load(a, [0, 16], [ROWS, 16], target_memory=pl.MemorySpace.Mat)
        b1 = pl.load(b, [16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul_acc(acc, pl.move(a1, target_memory=pl.MemorySpace.Left), pl.move(b1, target_memory=pl.MemorySpace.Right))
        pl.store(acc, [0, 0], c)
    return c


@pl.jit
def parallel_k(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]):
    """a @ b with K in two slices, one per core, as upstream's split-K
    example: a tensor-level pl.matmul of a[:, k0 : k0 + 16] by
    b[k0 : k0 + 16, :], added into c atomically after c is zeroed."""
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="zero_init"):
        c = pl.assemble(c, pl.full([ROWS, 16], dtype=pl.FP32, value=0.0), [0, 0])
    for ks in pl.parallel(0, 2):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="slice_k"):
            k0 = ks * 16
            partial = pl.matmul(a[:, k0 : k0 + 16], b[k0 : k0 + 16, :], out_dtype=pl.FP32)
            c = pl.assemble(c, partial, [0, 0], atomic=pl.AtomicType.Add)
    return c


@pl.jit
def mixed_bias(a: pl.Tensor, b: pl.Tensor, bias: pl.Tensor, out: pl.Out[pl.Tensor]):
    """a @ b + bias as one mixed cube/vector scope, halved by rows: the
    matmul's Acc tile moves to Vec for the add."""
    with pl.at(
        level=pl.Level.CORE_GROUP,
        optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)],
        name_hint="mixed",
    ):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        out[:] = pl.add(acc, bias)
    return out


@pl.jit
def swap_halves(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    """The two column halves of x change places (pl.concat)."""
    with pl.at(level=pl.Level.CORE_GROUP):
        left = pl.load(x, [0, 0], [ROWS, 16])
        right = pl.load(x, [0, 16], [ROWS, 16])
        pl.store(pl.concat(right, left), [0, 0], y)
    return y


@pl.jit
def swap_rows_by_hand(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    """swap_halves one row at a time: pl.slice windows of one tile written
    into another with pl.tile.assemble at loop offsets."""
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        out = pl.load(x, [0, 0], [ROWS, COLS])
        for i in pl.range(ROWS):
            left = pl.slice(t, [1, 16], [i, 0])
            right = pl.slice(t, [1, 16], [i, 16])
            out = pl.tile.assemble(out, left, [i, 16])
            out = pl.tile.assemble(out, right, [i, 0])
        pl.store(out, [0, 0], y)
    return y


@pl.jit
def plus_quarter(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    """x + a tile of 0.25 (pl.tile.full)."""
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        pl.store(pl.add(t, pl.tile.full([ROWS, COLS], dtype=pl.FP32, value=0.25)), [0, 0], y)
    return y


@pl.jit
def plus_half(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    """x + a tensor of 0.5 (pl.full), at tensor level: the kernel's
    conversion makes the fill a tile.full."""
    with pl.at(level=pl.Level.CORE_GROUP):
        y[0:ROWS, 0:COLS] = pl.add(x, pl.full([ROWS, COLS], dtype=pl.FP32, value=0.5))
    return y


if __name__ == "__main__":
    torch.manual_seed(0)
    a = torch.full((ROWS, COLS), 2.0, dtype=torch.float32)
    b = torch.randn(ROWS, COLS, dtype=torch.float32)
    c = torch.zeros_like(a)
    add_scaled(a, b, c)
    assert torch.allclose(c, (a + b) * 2.0)

    x = torch.randn((ROWS, COLS))
    # Shared-memory host tensors (as upstream's multi-program runtime
    # example allocates them) are samples like any other.
    compiled = twice.compile(x.share_memory_(), x.clone())
    activations(x, torch.zeros_like(x))
    row_softmax(x, torch.zeros_like(x))
    w = torch.randn(1, COLS)
    col_ops(x, w, torch.zeros_like(x))
    weights = torch.randn(COLS, 16)
    split_k(x, weights, torch.zeros((ROWS, 16)))
    parallel_k(x, weights, torch.zeros((ROWS, 16)))
    mixed_bias(x, weights, torch.randn(ROWS, 16), torch.zeros((ROWS, 16)))
    swap_halves(x, torch.zeros_like(x))
    swap_rows_by_hand(x, torch.zeros_like(x))
    plus_quarter(x, torch.zeros_like(x))
    plus_half(x, torch.zeros_like(x))
