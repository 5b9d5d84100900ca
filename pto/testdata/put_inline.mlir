module attributes {pto.target_arch = "a2a3"} {
  func.func @put(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<f16>, %arg2: i32, %arg3: !pto.ptr<i64>) {
    %c0_i64 = arith.constant 0 : i64
    %c2_i64 = arith.constant 2 : i64
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c2_index = arith.constant 2 : index
    %c4_index = arith.constant 4 : index
    %c16_index = arith.constant 16 : index
    %c64_index = arith.constant 64 : index
    %src_view = pto.make_tensor_view %arg1, shape = [%c16_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf16>
    %tput_stage = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    %peer_idx = arith.index_cast %arg2 : i32 to index
    %0 = pto.load_scalar %arg3[%c2_index] : !pto.ptr<i64> -> i64
    %1 = arith.trunci %0 : i64 to i32
    %2 = arith.index_cast %1 : i32 to index
    %3 = arith.addi %c4_index, %2 : index
    %4 = pto.load_scalar %arg3[%3] : !pto.ptr<i64> -> i64
    %5 = arith.addi %c4_index, %peer_idx : index
    %6 = pto.load_scalar %arg3[%5] : !pto.ptr<i64> -> i64
    %7 = arith.subi %6, %4 : i64
    %8 = arith.divsi %7, %c2_i64 : i64
    %9 = arith.index_cast %8 : i64 to index
    %10 = pto.addptr %arg0, %9 : !pto.ptr<f16> -> !pto.ptr<f16>
    %11 = pto.make_tensor_view %10, shape = [%c16_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf16>
    %dst_peer_pview = pto.partition_view %11, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x64xf16>
    %src_local_pview = pto.partition_view %src_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x64xf16>
    pto.barrier <PIPE_ALL>
    pto.comm.tput(%dst_peer_pview, %src_local_pview, buf(%tput_stage) : !pto.partition_tensor_view<16x64xf16>, !pto.partition_tensor_view<16x64xf16>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {atomicType = #pto<atomic_type atomic_none>}
    pto.barrier <PIPE_ALL>
    pto.cmo.cacheinvalid %dst_peer_pview single_cache_line : !pto.partition_tensor_view<16x64xf16>
    pto.fence.barrier_all #pto.fence_scope<gm>
    return
  }
}
