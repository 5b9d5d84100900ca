"""Function attributes given in the decorator, as upstream's cross-core
tests write them: @pl.function(..., attrs={...}). They print as the
pl.func_attr line of the body."""

import pypto.language as pl


@pl.program
class Attrs:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN, "dual_aiv_dispatch": True})
    def kernel(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        return pl.store(pl.add(t, t), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.kernel(x, y)
        return y


@pl.program
class BodyAttrs:
    """The same attributes given in the body, as upstream's guide writes
    them: pl.func_attr({...}) with a split mode by name."""

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN, "dual_aiv_dispatch": True})
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        return pl.store(pl.add(t, t), [0, 0], y)


@pl.program
class NoSplit:
    """pl.SplitMode.NONE is no split: upstream's parser drops it, so
    nothing prints."""

    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.NONE})
    def kernel(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.NONE})
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        return pl.store(pl.add(t, t), [0, 0], y)
