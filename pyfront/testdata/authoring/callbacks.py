"""Host callbacks: the chip adds, the host looks at the sum.

A HOST-level SubWorker is host Python. With a body of ``...`` it is an
abstract callback the run binds; with host code (torch) ptorepl keeps and
prints the code, and a run binds a Go callback in its place.
"""

import pypto.language as pl
import torch


@pl.program
class Inspect:
    @pl.function(type=pl.FunctionType.InCore)
    def add(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        b: pl.Tensor[[16, 32], pl.FP32],
        f: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.add(pl.load(a, [0, 0], [16, 32]), pl.load(b, [0, 0], [16, 32]))
        return pl.store(t, [0, 0], f)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        b: pl.Tensor[[16, 32], pl.FP32],
        f: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        return self.add(a, b, f)

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def record(f: pl.Tensor[[16, 32], pl.FP32], stats: pl.Out[pl.Tensor[[1, 2], pl.FP32]]):
        """Bound when the program runs."""
        # The implementation is supplied at run time.
        ...

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def check(f: pl.Tensor[[16, 32], pl.FP32]):
        # Host code: kept as written, not run by ptorepl.
        if not torch.isfinite(f).all():

            raise AssertionError(f"non-finite sum, max={f.max().item()}")

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        b: pl.Tensor[[16, 32], pl.FP32],
        f: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
        stats: pl.Out[pl.Tensor[[1, 2], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        out_f: pl.Tensor[[16, 32], pl.FP32] = self.chip(a, b, f)
        self.record(out_f, stats)
        self.check(out_f)
        return out_f
