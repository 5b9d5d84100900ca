module attributes {pto.target_arch = "a2a3"} {
  func.func @put(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<f16>, %arg2: i32, %arg3: !pto.ptr<i64>) {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c16_index = arith.constant 16 : index
    %c64_index = arith.constant 64 : index
    %src_view = pto.make_tensor_view %arg1, shape = [%c16_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf16>
    %tput_stage = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    %peer_idx = arith.index_cast %arg2 : i32 to index
    %0 = func.call @CommRemoteOffset_f16(%arg3, %peer_idx) : (!pto.ptr<i64>, index) -> index
    %1 = pto.addptr %arg0, %0 : !pto.ptr<f16> -> !pto.ptr<f16>
    %2 = pto.make_tensor_view %1, shape = [%c16_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf16>
    %dst_peer_pview = pto.partition_view %2, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x64xf16>
    %src_local_pview = pto.partition_view %src_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x64xf16>
    pto.barrier <PIPE_ALL>
    pto.comm.tput(%dst_peer_pview, %src_local_pview, buf(%tput_stage) : !pto.partition_tensor_view<16x64xf16>, !pto.partition_tensor_view<16x64xf16>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {atomicType = #pto<atomic_type atomic_none>}
    pto.barrier <PIPE_ALL>
    pto.cmo.cacheinvalid %dst_peer_pview single_cache_line : !pto.partition_tensor_view<16x64xf16>
    pto.fence.barrier_all #pto.fence_scope<gm>
    return
  }

  func.func private @CommRemoteOffset_f16(%ctx: !pto.ptr<i64>, %peer: index) -> index {
    %c_r = arith.constant 2 : index
    %c_w = arith.constant 4 : index
    %rk_pair = pto.load_scalar %ctx[%c_r] : !pto.ptr<i64> -> i64
    %rk_i32 = arith.trunci %rk_pair : i64 to i32
    %rk_idx = arith.index_cast %rk_i32 : i32 to index
    %lb_off = arith.addi %c_w, %rk_idx : index
    %lbase = pto.load_scalar %ctx[%lb_off] : !pto.ptr<i64> -> i64
    %pb_off = arith.addi %c_w, %peer : index
    %pbase = pto.load_scalar %ctx[%pb_off] : !pto.ptr<i64> -> i64
    %dbytes = arith.subi %pbase, %lbase : i64
    %esize = arith.constant 2 : i64
    %delems_i = arith.divsi %dbytes, %esize : i64
    %delems = arith.index_cast %delems_i : i64 to index
    return %delems : index
  }
}
