"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<f16>, %arg2: !pto.ptr<i32>, %arg3: !pto.ptr<f16>, %arg4: i32, %arg5: !pto.ptr<i64>, %arg6: !pto.ptr<i64>, %arg7: !pto.ptr<i64>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c2_index = "arith.constant"() {value = 2 : index} : () -> index
    %c4_index = "arith.constant"() {value = 4 : index} : () -> index
    %c16_index = "arith.constant"() {value = 16 : index} : () -> index
    %c32_index = "arith.constant"() {value = 32 : index} : () -> index
    %c64_index = "arith.constant"() {value = 64 : index} : () -> index
    %c1024_index = "arith.constant"() {value = 1024 : index} : () -> index
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c2_i64 = "arith.constant"() {value = 2 : i64} : () -> i64
    %c4_i64 = "arith.constant"() {value = 4 : i64} : () -> i64
    %c1024_i64 = "arith.constant"() {value = 1024 : i64} : () -> i64
    %c2048_i64 = "arith.constant"() {value = 2048 : i64} : () -> i64
    %c1_i32 = "arith.constant"() {value = 1 : i32} : () -> i32
    %x_view = "pto.make_tensor_view"(%arg3, %c16_index, %c32_index, %c32_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>
    %peer_idx = "arith.index_cast"(%arg4) : (i32) -> index
    %0 = "pto.load_scalar"(%arg5, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %1 = "arith.trunci"(%0) : (i64) -> i32
    %2 = "arith.index_cast"(%1) : (i32) -> index
    %3 = "arith.addi"(%c4_index, %2) : (index, index) -> index
    %4 = "pto.load_scalar"(%arg5, %3) : (!pto.ptr<i64>, index) -> i64
    %5 = "arith.addi"(%c4_index, %peer_idx) : (index, index) -> index
    %6 = "pto.load_scalar"(%arg5, %5) : (!pto.ptr<i64>, index) -> i64
    %7 = "arith.subi"(%6, %4) : (i64, i64) -> i64
    %8 = "arith.divsi"(%7, %c2_i64) : (i64, i64) -> i64
    %9 = "arith.index_cast"(%8) : (i64) -> index
    %10 = "pto.addptr"(%arg0, %9) : (!pto.ptr<f16>, index) -> !pto.ptr<f16>
    %11 = "pto.make_tensor_view"(%10, %c16_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>
    %data_peer_pview = "pto.partition_view"(%11, %c0_index, %c32_index, %c16_index, %c32_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x32xf16>
    %recv = "pto.alloc_tile"(%c0_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%data_peer_pview, %recv) : (!pto.partition_tensor_view<16x32xf16>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %x_local_pview = "pto.partition_view"(%x_view, %c0_index, %c0_index, %c16_index, %c32_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x32xf16>
    %mine = "pto.alloc_tile"(%c1024_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%x_local_pview, %mine) : (!pto.partition_tensor_view<16x32xf16>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %sum = "pto.alloc_tile"(%c2048_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tadd"(%recv, %mine, %sum) : (!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %12 = "arith.index_cast"(%arg4) : (i32) -> index
    %13 = "pto.load_scalar"(%arg6, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %14 = "arith.trunci"(%13) : (i64) -> i32
    %15 = "arith.index_cast"(%14) : (i32) -> index
    %16 = "arith.addi"(%c4_index, %15) : (index, index) -> index
    %17 = "pto.load_scalar"(%arg6, %16) : (!pto.ptr<i64>, index) -> i64
    %18 = "arith.addi"(%c4_index, %12) : (index, index) -> index
    %19 = "pto.load_scalar"(%arg6, %18) : (!pto.ptr<i64>, index) -> i64
    %20 = "arith.subi"(%19, %17) : (i64, i64) -> i64
    %21 = "arith.divsi"(%20, %c2_i64) : (i64, i64) -> i64
    %22 = "arith.index_cast"(%21) : (i64) -> index
    %23 = "pto.addptr"(%arg1, %22) : (!pto.ptr<f16>, index) -> !pto.ptr<f16>
    %24 = "pto.make_tensor_view"(%23, %c4_index, %c16_index, %c64_index, %c1024_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 3, 3>} : (!pto.ptr<f16>, index, index, index, index, index, index) -> !pto.tensor_view<?x?x?xf16>
    %target_peer_pview = "pto.partition_view"(%24, %c1_index, %c0_index, %c32_index, %c1_index, %c16_index, %c32_index) {operand_segment_sizes = array<i32: 1, 3, 3>} : (!pto.tensor_view<?x?x?xf16>, index, index, index, index, index, index) -> !pto.partition_tensor_view<1x16x32xf16>
    "pto.tstore"(%sum, %target_peer_pview) {atomicType = #pto<atomic_type atomic_add>} : (!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<1x16x32xf16>) -> ()
    "pto.cmo.cacheinvalid"(%target_peer_pview) {mode = #pto<cache_line single_cache_line>} : (!pto.partition_tensor_view<1x16x32xf16>) -> ()
    %25 = "arith.index_cast"(%arg4) : (i32) -> index
    %26 = "pto.load_scalar"(%arg5, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %27 = "arith.trunci"(%26) : (i64) -> i32
    %28 = "arith.index_cast"(%27) : (i32) -> index
    %29 = "arith.addi"(%c4_index, %28) : (index, index) -> index
    %30 = "pto.load_scalar"(%arg5, %29) : (!pto.ptr<i64>, index) -> i64
    %31 = "arith.addi"(%c4_index, %25) : (index, index) -> index
    %32 = "pto.load_scalar"(%arg5, %31) : (!pto.ptr<i64>, index) -> i64
    %33 = "arith.subi"(%32, %30) : (i64, i64) -> i64
    %34 = "arith.divsi"(%33, %c2_i64) : (i64, i64) -> i64
    %35 = "arith.index_cast"(%34) : (i64) -> index
    %36 = "pto.addptr"(%arg0, %35) : (!pto.ptr<f16>, index) -> !pto.ptr<f16>
    %37 = "pto.make_tensor_view"(%36, %c16_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>
    %38 = "pto.partition_view"(%37, %c0_index, %c0_index, %c16_index, %c32_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x32xf16>
    "pto.tstore"(%sum, %38) : (!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<16x32xf16>) -> ()
    "pto.cmo.cacheinvalid"(%38) {mode = #pto<cache_line single_cache_line>} : (!pto.partition_tensor_view<16x32xf16>) -> ()
    "pto.fence.barrier_all"() {scope = #pto.fence_scope<gm>} : () -> ()
    %39 = "arith.index_cast"(%arg4) : (i32) -> index
    %40 = "pto.load_scalar"(%arg7, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %41 = "arith.trunci"(%40) : (i64) -> i32
    %42 = "arith.index_cast"(%41) : (i32) -> index
    %43 = "arith.addi"(%c4_index, %42) : (index, index) -> index
    %44 = "pto.load_scalar"(%arg7, %43) : (!pto.ptr<i64>, index) -> i64
    %45 = "arith.addi"(%c4_index, %39) : (index, index) -> index
    %46 = "pto.load_scalar"(%arg7, %45) : (!pto.ptr<i64>, index) -> i64
    %47 = "arith.subi"(%46, %44) : (i64, i64) -> i64
    %48 = "arith.divsi"(%47, %c4_i64) : (i64, i64) -> i64
    %49 = "arith.index_cast"(%48) : (i64) -> index
    %50 = "pto.addptr"(%arg2, %49) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
    %51 = "pto.make_tensor_view"(%50, %c2_index, %c1_index, %c1_index, %c2_index) {layout = #pto.layout<dn>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<?x?xi32>
    %signal_peer_pview = "pto.partition_view"(%51, %c0_index, %c0_index, %c1_index, %c1_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xi32>, index, index, index, index) -> !pto.partition_tensor_view<1x1xi32>
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.comm.tnotify"(%signal_peer_pview, %c1_i32) {notifyOp = #pto<notify_op atomic_add>} : (!pto.partition_tensor_view<1x1xi32>, i32) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f16>, !pto.ptr<f16>, !pto.ptr<i32>, !pto.ptr<f16>, i32, !pto.ptr<i64>, !pto.ptr<i64>, !pto.ptr<i64>) -> (), sym_name = "remote"} : () -> ()
}) {pto.target_arch = "a5"} : () -> ()
