"""pl.gather along the last dimension of tensors of rank above 2: the
compiled program loads each operand whole and sees it as 2-D, its leading
dimensions collapsed into rows (tile.reshape), as upstream's lowering
does, gathers row by row and reshapes the result back.
"""

import pypto.language as pl


@pl.program
class GatherND:
    @pl.function(type=pl.FunctionType.InCore)
    def pick(
        self,
        x: pl.Tensor[[2, 3, 16], pl.FP32],
        i: pl.Tensor[[2, 3, 8], pl.INT32],
        y: pl.Tensor[[2, 2, 2, 32], pl.FP32],
        j: pl.Tensor[[2, 2, 2, 8], pl.INT32],
        out3: pl.Out[pl.Tensor[[2, 3, 8], pl.FP32]],
        out4: pl.Out[pl.Tensor[[2, 2, 2, 8], pl.FP32]],
    ) -> tuple[pl.Tensor[[2, 3, 8], pl.FP32], pl.Tensor[[2, 2, 2, 8], pl.FP32]]:
        g3 = pl.gather(x, dim=-1, index=i)
        out3 = pl.assemble(out3, g3, [0, 0, 0])
        g4 = pl.gather(y, dim=3, index=j)
        out4 = pl.assemble(out4, g4, [0, 0, 0, 0])
        return out3, out4

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[2, 3, 16], pl.FP32],
        i: pl.Tensor[[2, 3, 8], pl.INT32],
        y: pl.Tensor[[2, 2, 2, 32], pl.FP32],
        j: pl.Tensor[[2, 2, 2, 8], pl.INT32],
        out3: pl.Out[pl.Tensor[[2, 3, 8], pl.FP32]],
        out4: pl.Out[pl.Tensor[[2, 2, 2, 8], pl.FP32]],
    ) -> tuple[pl.Tensor[[2, 3, 8], pl.FP32], pl.Tensor[[2, 2, 2, 8], pl.FP32]]:
        out3, out4 = self.pick(x, i, y, j, out3, out4)
        return out3, out4
