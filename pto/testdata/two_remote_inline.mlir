module attributes {pto.target_arch = "a2a3"} {
  func.func @two_remote(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<i32>, %arg2: i32, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>) {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c2_index = arith.constant 2 : index
    %c4_index = arith.constant 4 : index
    %c16_index = arith.constant 16 : index
    %c64_index = arith.constant 64 : index
    %c0_i64 = arith.constant 0 : i64
    %c2_i64 = arith.constant 2 : i64
    %c4_i64 = arith.constant 4 : i64
    %c1_i32 = arith.constant 1 : i32
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
    %data_peer_pview = pto.partition_view %11, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x64xf16>
    %a = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tload ins(%data_peer_pview : !pto.partition_tensor_view<16x64xf16>) outs(%a : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    %12 = arith.index_cast %arg2 : i32 to index
    %13 = pto.load_scalar %arg3[%c2_index] : !pto.ptr<i64> -> i64
    %14 = arith.trunci %13 : i64 to i32
    %15 = arith.index_cast %14 : i32 to index
    %16 = arith.addi %c4_index, %15 : index
    %17 = pto.load_scalar %arg3[%16] : !pto.ptr<i64> -> i64
    %18 = arith.addi %c4_index, %12 : index
    %19 = pto.load_scalar %arg3[%18] : !pto.ptr<i64> -> i64
    %20 = arith.subi %19, %17 : i64
    %21 = arith.divsi %20, %c2_i64 : i64
    %22 = arith.index_cast %21 : i64 to index
    %23 = pto.addptr %arg0, %22 : !pto.ptr<f16> -> !pto.ptr<f16>
    %24 = pto.make_tensor_view %23, shape = [%c16_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf16>
    %25 = pto.partition_view %24, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x64xf16>
    pto.tstore ins(%a : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%25 : !pto.partition_tensor_view<16x64xf16>)
    pto.cmo.cacheinvalid %25 single_cache_line : !pto.partition_tensor_view<16x64xf16>
    %26 = arith.index_cast %arg2 : i32 to index
    %27 = pto.load_scalar %arg4[%c2_index] : !pto.ptr<i64> -> i64
    %28 = arith.trunci %27 : i64 to i32
    %29 = arith.index_cast %28 : i32 to index
    %30 = arith.addi %c4_index, %29 : index
    %31 = pto.load_scalar %arg4[%30] : !pto.ptr<i64> -> i64
    %32 = arith.addi %c4_index, %26 : index
    %33 = pto.load_scalar %arg4[%32] : !pto.ptr<i64> -> i64
    %34 = arith.subi %33, %31 : i64
    %35 = arith.divsi %34, %c4_i64 : i64
    %36 = arith.index_cast %35 : i64 to index
    %37 = pto.addptr %arg1, %36 : !pto.ptr<i32> -> !pto.ptr<i32>
    %38 = pto.make_tensor_view %37, shape = [%c2_index, %c1_index], strides = [%c1_index, %c2_index] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
    %signal_peer_pview = pto.partition_view %38, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
    pto.barrier <PIPE_ALL>
    pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op set>}
    return
  }
}
