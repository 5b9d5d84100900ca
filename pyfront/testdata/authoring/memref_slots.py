"""Declared allocations: NAME = pl.MemRef(slots=N) is an on-chip buffer of
N equal slots that InitMemRef sizes (a slot holds the largest tile placed
in it) and AllocateMemoryAddr places; a tile annotated NAME[k] lives in
slot k, which may be a runtime index (i % 2 rotates a ping-pong). Tiles in
different slots may be live together; two live tiles in one slot corrupt
each other, which the simulated buffer shows and the checker names.

- PingPong: per row block, a's rows in slot i % 2 and b's in the other,
  summed: out = a + b.
- build_two_slots(0, 1): constant slots 0 and 1 hold a and b at once:
  out = a - b.
- build_two_slots(0, 0): both in slot 0 while both are live: the compiled
  program reads b where it expects a, and computes b - b."""

import pypto.language as pl

TR = 16
TC = 16
STEPS = 4

PINGPONG = pl.MemRef(slots=2)
PAIR = pl.MemRef(slots=2)


@pl.program
class PingPong:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[STEPS * TR, TC], pl.FP32],
        b: pl.Tensor[[STEPS * TR, TC], pl.FP32],
        out: pl.Out[pl.Tensor[[STEPS * TR, TC], pl.FP32]],
    ) -> pl.Tensor[[STEPS * TR, TC], pl.FP32]:
        for i in pl.range(STEPS):
            lo: pl.Tile[[TR, TC], pl.FP32, PINGPONG[i % 2], pl.Mem.Vec] = pl.load(a, [i * TR, 0], [TR, TC])
            hi: pl.Tile[[TR, TC], pl.FP32, PINGPONG[(i + 1) % 2], pl.Mem.Vec] = pl.load(b, [i * TR, 0], [TR, TC])
            out = pl.store(pl.add(lo, hi), [i * TR, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[STEPS * TR, TC], pl.FP32],
        b: pl.Tensor[[STEPS * TR, TC], pl.FP32],
        out: pl.Out[pl.Tensor[[STEPS * TR, TC], pl.FP32]],
    ) -> pl.Tensor[[STEPS * TR, TC], pl.FP32]:
        out = self.kernel(a, b, out)
        return out


def build_two_slots(lo_slot, hi_slot):
    """out = a - b with a in slot lo_slot and b in slot hi_slot of PAIR,
    both live until the subtraction."""

    @pl.program
    class TwoSlots:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            a: pl.Tensor[[TR, TC], pl.FP32],
            b: pl.Tensor[[TR, TC], pl.FP32],
            out: pl.Out[pl.Tensor[[TR, TC], pl.FP32]],
        ) -> pl.Tensor[[TR, TC], pl.FP32]:
            lo: pl.Tile[[TR, TC], pl.FP32, PAIR[lo_slot], pl.Mem.Vec] = pl.load(a, [0, 0], [TR, TC])
            hi: pl.Tile[[TR, TC], pl.FP32, PAIR[hi_slot], pl.Mem.Vec] = pl.load(b, [0, 0], [TR, TC])
            return pl.store(pl.sub(lo, hi), [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            a: pl.Tensor[[TR, TC], pl.FP32],
            b: pl.Tensor[[TR, TC], pl.FP32],
            out: pl.Out[pl.Tensor[[TR, TC], pl.FP32]],
        ) -> pl.Tensor[[TR, TC], pl.FP32]:
            out = self.kernel(a, b, out)
            return out

    return TwoSlots


@pl.program
class LocalDeclaration:
    """A kernel declares its own allocation (scratch = pl.MemRef(slots=2)):
    out = a + exp(a), a and exp(a) in its two slots."""

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[TR, TC], pl.FP32],
        out: pl.Out[pl.Tensor[[TR, TC], pl.FP32]],
    ) -> pl.Tensor[[TR, TC], pl.FP32]:
        scratch = pl.MemRef(slots=2)
        t0: pl.Tile[[TR, TC], pl.FP32, scratch[0], pl.Mem.Vec] = pl.load(a, [0, 0], [TR, TC])
        t1: pl.Tile[[TR, TC], pl.FP32, scratch[1], pl.Mem.Vec] = pl.exp(t0)
        return pl.store(pl.add(t0, t1), [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[TR, TC], pl.FP32],
        out: pl.Out[pl.Tensor[[TR, TC], pl.FP32]],
    ) -> pl.Tensor[[TR, TC], pl.FP32]:
        out = self.kernel(a, out)
        return out
