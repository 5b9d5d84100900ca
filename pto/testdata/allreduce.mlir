module attributes {pto.target_arch = "a2a3"} {
  func.func @allreduce(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<f32>, %arg3: !pto.ptr<i32>, %arg4: !pto.ptr<i64>, %arg5: !pto.ptr<i64>) {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c2_index = arith.constant 2 : index
    %c16_index = arith.constant 16 : index
    %c0_i64 = arith.constant 0 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %c128_i64 = arith.constant 128 : i64
    %c192_i64 = arith.constant 192 : i64
    %c256_i64 = arith.constant 256 : i64
    %c1_i32 = arith.constant 1 : i32
    %c0p5_f32 = arith.constant 5.0e-01 : f32
    %x_view = pto.make_tensor_view %arg0, shape = [%c1_index, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    %data_view = pto.make_tensor_view %arg2, shape = [%c2_index, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    %y_view = pto.make_tensor_view %arg1, shape = [%c1_index, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    %x_local_pview = pto.partition_view %x_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
    %staged = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tload ins(%x_local_pview : !pto.partition_tensor_view<1x16xf32>) outs(%staged : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    %data_local_pview = pto.partition_view %data_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
    pto.tstore ins(%staged : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%data_local_pview : !pto.partition_tensor_view<1x16xf32>)
    %0 = pto.partition_view %data_view, offsets = [%c0_index, %c0_index], sizes = [%c2_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x16xf32>
    pto.cmo.cacheinvalid %0 single_cache_line : !pto.partition_tensor_view<2x16xf32>
    pto.fence.barrier_all #pto.fence_scope<gm>
    %1 = pto.load_scalar %arg4[%c2_index] : !pto.ptr<i64> -> i64
    %2 = arith.shrui %1, %c32_i64 : i64
    %nranks = arith.trunci %2 : i64 to i32
    %nranks_idx = arith.index_cast %nranks : i32 to index
    %3 = pto.load_scalar %arg4[%c2_index] : !pto.ptr<i64> -> i64
    %my_rank = arith.trunci %3 : i64 to i32
    scf.for %peer = %c0_index to %nranks_idx step %c1_index {
      %4 = arith.index_cast %my_rank : i32 to index
      %5 = arith.cmpi ne, %peer, %4 : index
      scf.if %5 {
        %6 = func.call @CommRemoteOffset_i32(%arg5, %peer) : (!pto.ptr<i64>, index) -> index
        %7 = pto.addptr %arg3, %6 : !pto.ptr<i32> -> !pto.ptr<i32>
        %8 = pto.make_tensor_view %7, shape = [%c2_index, %c1_index], strides = [%c1_index, %c2_index] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
        %9 = arith.index_cast %my_rank : i32 to index
        %signal_peer_pview = pto.partition_view %8, offsets = [%9, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
        pto.barrier <PIPE_ALL>
        pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
      }
    }
    %10 = pto.partition_view %data_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
    %chunk = pto.alloc_tile addr = %c64_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tload ins(%10 : !pto.partition_tensor_view<1x16xf32>) outs(%chunk : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    pto.tfillpad ins(%chunk : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%chunk : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {padValue = #pto<pad_value zero>}
    %acc_rv = scf.for %peer_1 = %c0_index to %nranks_idx step %c1_index iter_args(%acc_iter = %chunk) -> (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {
      %11 = arith.index_cast %my_rank : i32 to index
      %12 = arith.cmpi ne, %peer_1, %11 : index
      %acc_next = scf.if %12 -> (!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {
        %13 = func.call @CommRemoteOffset_f32(%arg4, %peer_1) : (!pto.ptr<i64>, index) -> index
        %14 = pto.addptr %arg2, %13 : !pto.ptr<f32> -> !pto.ptr<f32>
        %15 = pto.make_tensor_view %14, shape = [%c2_index, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
        %data_peer_pview = pto.partition_view %15, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
        %recv = pto.alloc_tile addr = %c128_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
        pto.tload ins(%data_peer_pview : !pto.partition_tensor_view<1x16xf32>) outs(%recv : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
        pto.tfillpad ins(%recv : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%recv : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {padValue = #pto<pad_value zero>}
        %acc_sum = pto.alloc_tile addr = %c192_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
        pto.tadd ins(%acc_iter, %recv : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%acc_sum : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
        scf.yield %acc_sum : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
      } else {
        scf.yield %acc_iter : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
      }
      scf.yield %acc_next : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    }
    %out = pto.alloc_tile addr = %c256_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tmuls ins(%acc_rv, %c0p5_f32 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>, f32) outs(%out : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    %y_local_pview = pto.partition_view %y_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
    pto.tstore ins(%out : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%y_local_pview : !pto.partition_tensor_view<1x16xf32>)
    %16 = pto.partition_view %data_view, offsets = [%c0_index, %c0_index], sizes = [%c2_index, %c16_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x16xf32>
    pto.cmo.cacheinvalid %16 single_cache_line : !pto.partition_tensor_view<2x16xf32>
    pto.fence.barrier_all #pto.fence_scope<gm>
    return
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
