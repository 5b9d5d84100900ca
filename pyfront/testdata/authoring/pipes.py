"""Explicit cross-core pipes between the cube (AIC) and vector (AIV)
functions of a Group. The consumer reserves the ring in its own memory,
the producer imports it by name, both sides initialise the pipe, then
tpush fills a slot, tpop takes the oldest tile and tfree gives its slot
back.

- TwoPipes: both vector lanes compute a + b and a - b and push them to the
  cube through pipes 1 and 0 (in that order); the cube pops pipe 0 first,
  so the ids must keep the two FIFOs apart. out = (a + b) @ (a - b).
- Broadcast: the cube pushes a @ b once; each vector lane pops the whole
  tile and stores its half of rows, plus one.
- RingOfTwo: a two-slot ring carries four row blocks to the cube, which
  frees each slot after its matmul: the lanes and the cube must take turns.
- NeverFreed: the same ring, but the cube never frees a slot, so the third
  push waits forever."""

import pypto.language as pl

D = 16
HALF = D // 2
SLOT = D * D * 4
BLOCKS = 4


@pl.program
class TwoPipes:
    @pl.function(type=pl.FunctionType.AIV, attrs={"dual_aiv_dispatch": True})
    def vector_side(
        self,
        a: pl.Tensor[[D, D], pl.FP32],
        b: pl.Tensor[[D, D], pl.FP32],
        out: pl.Out[pl.Tensor[[D, D], pl.FP32]],
    ):
        sum_peer = pl.import_peer_buffer(name="sum_ring", peer_func="cube_side")
        diff_peer = pl.import_peer_buffer(name="diff_ring", peer_func="cube_side")
        pl.aiv_initialize_pipe(0, sum_peer, dir_mask=2, slot_size=SLOT, id=0)
        pl.aiv_initialize_pipe(0, diff_peer, dir_mask=2, slot_size=SLOT, id=1)
        a_tile = pl.load(a, [0, 0], [D, D])
        b_tile = pl.load(b, [0, 0], [D, D])
        s = pl.add(a_tile, b_tile)
        d = pl.sub(a_tile, b_tile)
        pl.tpush_to_aic(d, split=0, id=1)
        pl.tpush_to_aic(s, split=0, id=0)

    @pl.function(type=pl.FunctionType.AIC)
    def cube_side(
        self,
        a: pl.Tensor[[D, D], pl.FP32],
        b: pl.Tensor[[D, D], pl.FP32],
        out: pl.Out[pl.Tensor[[D, D], pl.FP32]],
    ) -> pl.Tensor[[D, D], pl.FP32]:
        sum_ring = pl.reserve_buffer(name="sum_ring", size=SLOT * 8, base=pl.AUTO)
        diff_ring = pl.reserve_buffer(name="diff_ring", size=SLOT * 8, base=pl.AUTO)
        pl.aic_initialize_pipe(0, sum_ring, dir_mask=2, slot_size=SLOT, id=0)
        pl.aic_initialize_pipe(0, diff_ring, dir_mask=2, slot_size=SLOT, id=1)
        s: pl.Tile[[D, D], pl.FP32, pl.Mem.Mat] = pl.tpop_from_aiv(split=0, id=0)
        d: pl.Tile[[D, D], pl.FP32, pl.Mem.Mat] = pl.tpop_from_aiv(split=0, id=1)
        prod: pl.Tile[[D, D], pl.FP32] = pl.matmul(pl.move(s, target_memory=pl.Mem.Left), pl.move(d, target_memory=pl.Mem.Right))
        pl.tfree_to_aiv(s)
        pl.tfree_to_aiv(d)
        return pl.store(prod, [0, 0], out)

    @pl.function(type=pl.FunctionType.Group)
    def group(
        self,
        a: pl.Tensor[[D, D], pl.FP32],
        b: pl.Tensor[[D, D], pl.FP32],
        out: pl.Out[pl.Tensor[[D, D], pl.FP32]],
    ) -> pl.Tensor[[D, D], pl.FP32]:
        result = self.cube_side(a, b, out)
        self.vector_side(a, b, out)
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[D, D], pl.FP32],
        b: pl.Tensor[[D, D], pl.FP32],
        out: pl.Out[pl.Tensor[[D, D], pl.FP32]],
    ) -> pl.Tensor[[D, D], pl.FP32]:
        out = self.group(a, b, out)
        return out


@pl.program
class Broadcast:
    @pl.function(type=pl.FunctionType.AIC)
    def cube_side(
        self,
        a: pl.Tensor[[D, D], pl.FP32],
        b: pl.Tensor[[D, D], pl.FP32],
        out: pl.Out[pl.Tensor[[D, D], pl.FP32]],
    ):
        ring = pl.import_peer_buffer(name="c2v_ring", peer_func="vector_side")
        pl.aic_initialize_pipe(dir_mask=1, slot_size=SLOT, c2v_consumer_buf=ring)
        a_mat = pl.load(a, [0, 0], [D, D], target_memory=pl.Mem.Mat)
        b_mat = pl.load(b, [0, 0], [D, D], target_memory=pl.Mem.Mat)
        prod = pl.matmul(pl.move(a_mat, target_memory=pl.Mem.Left), pl.move(b_mat, target_memory=pl.Mem.Right))
        pl.tpush_to_aiv(prod, split=0)

    @pl.function(type=pl.FunctionType.AIV, attrs={"dual_aiv_dispatch": True})
    def vector_side(
        self,
        a: pl.Tensor[[D, D], pl.FP32],
        b: pl.Tensor[[D, D], pl.FP32],
        out: pl.Out[pl.Tensor[[D, D], pl.FP32]],
    ) -> pl.Tensor[[D, D], pl.FP32]:
        ring = pl.reserve_buffer(name="c2v_ring", size=SLOT * 4, base=0x2000)
        pl.aiv_initialize_pipe(dir_mask=1, slot_size=SLOT, c2v_consumer_buf=ring)
        whole: pl.Tile[[D, D], pl.FP32, pl.Mem.Vec] = pl.tpop_from_aic(split=0)
        lane = pl.tile.get_subblock_idx()
        plus = pl.add(whole, 1.0)
        mine = plus[lane * HALF : lane * HALF + HALF, 0:D]
        pl.tfree_to_aic(whole)
        return pl.store(mine, [lane * HALF, 0], out)

    @pl.function(type=pl.FunctionType.Group)
    def group(
        self,
        a: pl.Tensor[[D, D], pl.FP32],
        b: pl.Tensor[[D, D], pl.FP32],
        out: pl.Out[pl.Tensor[[D, D], pl.FP32]],
    ) -> pl.Tensor[[D, D], pl.FP32]:
        self.cube_side(a, b, out)
        result = self.vector_side(a, b, out)
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[D, D], pl.FP32],
        b: pl.Tensor[[D, D], pl.FP32],
        out: pl.Out[pl.Tensor[[D, D], pl.FP32]],
    ) -> pl.Tensor[[D, D], pl.FP32]:
        out = self.group(a, b, out)
        return out


def build_ring(free_slots):
    """A two-slot ring of BLOCKS row blocks; free_slots=False never frees."""

    @pl.program
    class Ring:
        @pl.function(type=pl.FunctionType.AIV)
        def vector_side(
            self,
            a: pl.Tensor[[BLOCKS * D, D], pl.FP32],
            b: pl.Tensor[[D, D], pl.FP32],
            out: pl.Out[pl.Tensor[[BLOCKS * D, D], pl.FP32]],
        ):
            ring = pl.import_peer_buffer(name="blocks", peer_func="cube_side")
            pl.aiv_initialize_pipe(0, ring, dir_mask=2, slot_size=SLOT, slot_num=2)
            for i in pl.range(BLOCKS):
                blk = pl.load(a, [i * D, 0], [D, D])
                pl.tpush_to_aic(pl.mul(blk, 2.0), split=0)

        @pl.function(type=pl.FunctionType.AIC)
        def cube_side(
            self,
            a: pl.Tensor[[BLOCKS * D, D], pl.FP32],
            b: pl.Tensor[[D, D], pl.FP32],
            out: pl.Out[pl.Tensor[[BLOCKS * D, D], pl.FP32]],
        ) -> pl.Tensor[[BLOCKS * D, D], pl.FP32]:
            ring = pl.reserve_buffer(name="blocks", size=SLOT * 2)
            pl.aic_initialize_pipe(0, ring, dir_mask=2, slot_size=SLOT, slot_num=2)
            b_mat = pl.load(b, [0, 0], [D, D], target_memory=pl.Mem.Mat)
            b_right = pl.move(b_mat, target_memory=pl.Mem.Right)
            for i in pl.range(BLOCKS):
                blk: pl.Tile[[D, D], pl.FP32, pl.Mem.Mat] = pl.tpop_from_aiv(split=0)
                prod = pl.matmul(pl.move(blk, target_memory=pl.Mem.Left), b_right)
                if free_slots:
                    pl.tfree_to_aiv(blk)
                out = pl.store(prod, [i * D, 0], out)
            return out

        @pl.function(type=pl.FunctionType.Group)
        def group(
            self,
            a: pl.Tensor[[BLOCKS * D, D], pl.FP32],
            b: pl.Tensor[[D, D], pl.FP32],
            out: pl.Out[pl.Tensor[[BLOCKS * D, D], pl.FP32]],
        ) -> pl.Tensor[[BLOCKS * D, D], pl.FP32]:
            result = self.cube_side(a, b, out)
            self.vector_side(a, b, out)
            return result

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            a: pl.Tensor[[BLOCKS * D, D], pl.FP32],
            b: pl.Tensor[[D, D], pl.FP32],
            out: pl.Out[pl.Tensor[[BLOCKS * D, D], pl.FP32]],
        ) -> pl.Tensor[[BLOCKS * D, D], pl.FP32]:
            out = self.group(a, b, out)
            return out

    return Ring
