module attributes {pto.target_arch = "a2a3"} {
  func.func @remote(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<f16>, %arg2: !pto.ptr<i32>, %arg3: !pto.ptr<f16>, %arg4: i32, %arg5: !pto.ptr<i64>, %arg6: !pto.ptr<i64>, %arg7: !pto.ptr<i64>) {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c2_index = arith.constant 2 : index
    %c4_index = arith.constant 4 : index
    %c16_index = arith.constant 16 : index
    %c32_index = arith.constant 32 : index
    %c64_index = arith.constant 64 : index
    %c1024_index = arith.constant 1024 : index
    %c0_i64 = arith.constant 0 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %c2048_i64 = arith.constant 2048 : i64
    %c1_i32 = arith.constant 1 : i32
    %x_view = pto.make_tensor_view %arg3, shape = [%c16_index, %c32_index], strides = [%c32_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf16>
    %peer_idx = arith.index_cast %arg4 : i32 to index
    %0 = func.call @CommRemoteOffset_f16(%arg5, %peer_idx) : (!pto.ptr<i64>, index) -> index
    %1 = pto.addptr %arg0, %0 : !pto.ptr<f16> -> !pto.ptr<f16>
    %2 = pto.make_tensor_view %1, shape = [%c16_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf16>
    %data_peer_pview = pto.partition_view %2, offsets = [%c0_index, %c32_index], sizes = [%c16_index, %c32_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x32xf16>
    %recv = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tload ins(%data_peer_pview : !pto.partition_tensor_view<16x32xf16>) outs(%recv : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    %x_local_pview = pto.partition_view %x_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c32_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x32xf16>
    %mine = pto.alloc_tile addr = %c1024_i64 : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tload ins(%x_local_pview : !pto.partition_tensor_view<16x32xf16>) outs(%mine : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    %sum = pto.alloc_tile addr = %c2048_i64 : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tadd ins(%recv, %mine : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%sum : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    %3 = arith.index_cast %arg4 : i32 to index
    %4 = func.call @CommRemoteOffset_f16(%arg6, %3) : (!pto.ptr<i64>, index) -> index
    %5 = pto.addptr %arg1, %4 : !pto.ptr<f16> -> !pto.ptr<f16>
    %6 = pto.make_tensor_view %5, shape = [%c4_index, %c16_index, %c64_index], strides = [%c1024_index, %c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?x?xf16>
    %target_peer_pview = pto.partition_view %6, offsets = [%c1_index, %c0_index, %c32_index], sizes = [%c1_index, %c16_index, %c32_index] : !pto.tensor_view<?x?x?xf16> -> !pto.partition_tensor_view<1x16x32xf16>
    pto.tstore ins(%sum : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%target_peer_pview : !pto.partition_tensor_view<1x16x32xf16>) {atomicType = #pto<atomic_type atomic_add>}
    pto.cmo.cacheinvalid %target_peer_pview single_cache_line : !pto.partition_tensor_view<1x16x32xf16>
    %7 = arith.index_cast %arg4 : i32 to index
    %8 = func.call @CommRemoteOffset_f16(%arg5, %7) : (!pto.ptr<i64>, index) -> index
    %9 = pto.addptr %arg0, %8 : !pto.ptr<f16> -> !pto.ptr<f16>
    %10 = pto.make_tensor_view %9, shape = [%c16_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf16>
    %11 = pto.partition_view %10, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c32_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x32xf16>
    pto.tstore ins(%sum : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%11 : !pto.partition_tensor_view<16x32xf16>)
    pto.cmo.cacheinvalid %11 single_cache_line : !pto.partition_tensor_view<16x32xf16>
    pto.fence.barrier_all #pto.fence_scope<gm>
    %12 = arith.index_cast %arg4 : i32 to index
    %13 = func.call @CommRemoteOffset_i32(%arg7, %12) : (!pto.ptr<i64>, index) -> index
    %14 = pto.addptr %arg2, %13 : !pto.ptr<i32> -> !pto.ptr<i32>
    %15 = pto.make_tensor_view %14, shape = [%c2_index, %c1_index], strides = [%c1_index, %c2_index] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
    %signal_peer_pview = pto.partition_view %15, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
    pto.barrier <PIPE_ALL>
    pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
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

  func.func private @CommRemoteOffset_i32(%ctx: !pto.ptr<i64>, %peer: index) -> index {
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
