module attributes {pto.target_arch = "a2a3"} {
  func.func @get(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: i32, %arg3: !pto.ptr<i64>) {
    %c64_i64 = arith.constant 64 : i64
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c2_index = arith.constant 2 : index
    %c16_index = arith.constant 16 : index
    %y_view = pto.make_tensor_view %arg0, shape = [%c2_index, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    %tget_stage = pto.alloc_tile addr = %c64_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    %y_local_pview = pto.partition_view %y_view, offsets = [%c1_index, %c0_index], sizes = [%c1_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
    %peer_idx = arith.index_cast %arg2 : i32 to index
    %0 = func.call @CommRemoteOffset_f32(%arg3, %peer_idx) : (!pto.ptr<i64>, index) -> index
    %1 = pto.addptr %arg1, %0 : !pto.ptr<f32> -> !pto.ptr<f32>
    %2 = pto.make_tensor_view %1, shape = [%c1_index, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    %data_peer_pview = pto.partition_view %2, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
    pto.barrier <PIPE_ALL>
    pto.comm.tget(%y_local_pview, %data_peer_pview, buf(%tget_stage) : !pto.partition_tensor_view<1x16xf32>, !pto.partition_tensor_view<1x16xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    pto.barrier <PIPE_ALL>
    return
  }

  func.func private @CommRemoteOffset_f32(%ctx: !pto.ptr<i64>, %peer: index) -> index {
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
    %esize = arith.constant 4 : i64
    %delems_i = arith.divsi %dbytes, %esize : i64
    %delems = arith.index_cast %delems_i : i64 to index
    return %delems : index
  }
}
