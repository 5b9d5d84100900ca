"""A standalone split vector kernel, written at full shape: the cube pushes
a [16, 16] product narrowed to a runtime valid shape, and the vector
function (split UP_DOWN or LEFT_RIGHT) pops it, adds a bias it loads at
full shape, and stores at [0, 0]. Each lane works on its half: the pop,
the load and the store are the lane's, and the valid extent is the
lane's own, as upstream's SplitVectorKernel rewrites the function."""

import pypto.language as pl

N = 16
SLOT = N * N * 4


def build_split_lanes(up_down):
    mode = pl.SplitMode.UP_DOWN if up_down else pl.SplitMode.LEFT_RIGHT
    code = 1 if up_down else 2

    @pl.program
    class SplitLanes:
        @pl.function(type=pl.FunctionType.AIC, attrs={"split": mode})
        def cube(
            self,
            a: pl.Tensor[[N, N], pl.BF16],
            b: pl.Tensor[[N, N], pl.BF16],
            bias: pl.Tensor[[N, N], pl.FP32],
            out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
            rows: pl.Scalar[pl.INDEX],
            cols: pl.Scalar[pl.INDEX],
        ):
            peer = pl.import_peer_buffer(name="c2v", peer_func="vector")
            pl.aic_initialize_pipe(dir_mask=1, slot_size=SLOT, c2v_consumer_buf=peer)
            a_mat: pl.Tile[[N, N], pl.BF16, pl.Mem.Mat] = pl.load(a, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat)
            b_mat: pl.Tile[[N, N], pl.BF16, pl.Mem.Mat] = pl.load(b, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat)
            a_l: pl.Tile[[N, N], pl.BF16, pl.Mem.Left] = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
            b_r: pl.Tile[[N, N], pl.BF16, pl.Mem.Right] = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
            acc: pl.Tile[[N, N], pl.FP32] = pl.matmul(a_l, b_r)
            narrow: pl.Tile[[N, N], pl.FP32, pl.Mem.Acc, pl.TileView(valid_shape=[rows, cols])] = pl.tile.set_validshape(acc, rows, cols)
            pl.tpush_to_aiv(narrow, split=code)

        @pl.function(type=pl.FunctionType.AIV, attrs={"split": mode})
        def vector(
            self,
            a: pl.Tensor[[N, N], pl.BF16],
            b: pl.Tensor[[N, N], pl.BF16],
            bias: pl.Tensor[[N, N], pl.FP32],
            out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
            rows: pl.Scalar[pl.INDEX],
            cols: pl.Scalar[pl.INDEX],
        ) -> pl.Tensor[[N, N], pl.FP32]:
            buf = pl.reserve_buffer(name="c2v", size=SLOT * 4, base=0x2000)
            pl.aiv_initialize_pipe(dir_mask=1, slot_size=SLOT, c2v_consumer_buf=buf)
            got: pl.Tile[[N, N], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[rows, cols])] = pl.tpop_from_aic(split=code)
            bias_t: pl.Tile[[N, N], pl.FP32] = pl.load(bias, [0, 0], [N, N])
            summed: pl.Tile[[N, N], pl.FP32] = pl.add(got, bias_t)
            pl.tfree_to_aic(got)
            return pl.store(summed, [0, 0], out)

        @pl.function(type=pl.FunctionType.Group, attrs={"split": mode})
        def group(
            self,
            a: pl.Tensor[[N, N], pl.BF16],
            b: pl.Tensor[[N, N], pl.BF16],
            bias: pl.Tensor[[N, N], pl.FP32],
            out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
            rows: pl.Scalar[pl.INDEX],
            cols: pl.Scalar[pl.INDEX],
        ) -> pl.Tensor[[N, N], pl.FP32]:
            self.cube(a, b, bias, out, rows, cols)
            return self.vector(a, b, bias, out, rows, cols)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            a: pl.Tensor[[N, N], pl.BF16],
            b: pl.Tensor[[N, N], pl.BF16],
            bias: pl.Tensor[[N, N], pl.FP32],
            valid: pl.Tensor[[2], pl.INDEX],
            out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        ) -> pl.Tensor[[N, N], pl.FP32]:
            rows: pl.Scalar[pl.INDEX] = pl.tensor.read(valid, [0])
            cols: pl.Scalar[pl.INDEX] = pl.tensor.read(valid, [1])
            result = self.group(a, b, bias, out, rows, cols)
            return result

    return SplitLanes


def build_split_col_sum():
    """A column sum of the popped tile in an UP_DOWN kernel: each lane
    holds half the rows, so the sum would be partial, which upstream's
    SplitVectorKernel refuses."""

    @pl.program
    class SplitColSum:
        @pl.function(type=pl.FunctionType.AIC, attrs={"split": pl.SplitMode.UP_DOWN})
        def cube(self, a: pl.Tensor[[N, N], pl.BF16], sums: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
            peer = pl.import_peer_buffer(name="c2v", peer_func="vector")
            pl.aic_initialize_pipe(dir_mask=1, slot_size=SLOT, c2v_consumer_buf=peer)
            a_mat: pl.Tile[[N, N], pl.BF16, pl.Mem.Mat] = pl.load(a, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat)
            a_l: pl.Tile[[N, N], pl.BF16, pl.Mem.Left] = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
            a_r: pl.Tile[[N, N], pl.BF16, pl.Mem.Right] = pl.move(a_mat, target_memory=pl.MemorySpace.Right)
            acc: pl.Tile[[N, N], pl.FP32] = pl.matmul(a_l, a_r)
            pl.tpush_to_aiv(acc, split=1)

        @pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.UP_DOWN})
        def vector(self, a: pl.Tensor[[N, N], pl.BF16], sums: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
            buf = pl.reserve_buffer(name="c2v", size=SLOT * 4, base=0x2000)
            pl.aiv_initialize_pipe(dir_mask=1, slot_size=SLOT, c2v_consumer_buf=buf)
            got: pl.Tile[[N, N], pl.FP32, pl.Mem.Vec] = pl.tpop_from_aic(split=1)
            total: pl.Tile[[1, N], pl.FP32] = pl.col_sum(got)
            pl.tfree_to_aic(got)
            return pl.store(total, [0, 0], sums)

        @pl.function(type=pl.FunctionType.Group, attrs={"split": pl.SplitMode.UP_DOWN})
        def group(self, a: pl.Tensor[[N, N], pl.BF16], sums: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
            self.cube(a, sums)
            return self.vector(a, sums)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, a: pl.Tensor[[N, N], pl.BF16], sums: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
            result = self.group(a, sums)
            return result

    return SplitColSum
