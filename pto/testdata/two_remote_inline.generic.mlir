"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<i32>, %arg2: i32, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c2_index = "arith.constant"() {value = 2 : index} : () -> index
    %c4_index = "arith.constant"() {value = 4 : index} : () -> index
    %c16_index = "arith.constant"() {value = 16 : index} : () -> index
    %c64_index = "arith.constant"() {value = 64 : index} : () -> index
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c2_i64 = "arith.constant"() {value = 2 : i64} : () -> i64
    %c4_i64 = "arith.constant"() {value = 4 : i64} : () -> i64
    %c1_i32 = "arith.constant"() {value = 1 : i32} : () -> i32
    %peer_idx = "arith.index_cast"(%arg2) : (i32) -> index
    %0 = "pto.load_scalar"(%arg3, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %1 = "arith.trunci"(%0) : (i64) -> i32
    %2 = "arith.index_cast"(%1) : (i32) -> index
    %3 = "arith.addi"(%c4_index, %2) : (index, index) -> index
    %4 = "pto.load_scalar"(%arg3, %3) : (!pto.ptr<i64>, index) -> i64
    %5 = "arith.addi"(%c4_index, %peer_idx) : (index, index) -> index
    %6 = "pto.load_scalar"(%arg3, %5) : (!pto.ptr<i64>, index) -> i64
    %7 = "arith.subi"(%6, %4) : (i64, i64) -> i64
    %8 = "arith.divsi"(%7, %c2_i64) : (i64, i64) -> i64
    %9 = "arith.index_cast"(%8) : (i64) -> index
    %10 = "pto.addptr"(%arg0, %9) : (!pto.ptr<f16>, index) -> !pto.ptr<f16>
    %11 = "pto.make_tensor_view"(%10, %c16_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>
    %data_peer_pview = "pto.partition_view"(%11, %c0_index, %c0_index, %c16_index, %c64_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x64xf16>
    %a = "pto.alloc_tile"(%c0_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    "pto.tload"(%data_peer_pview, %a) : (!pto.partition_tensor_view<16x64xf16>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    %12 = "arith.index_cast"(%arg2) : (i32) -> index
    %13 = "pto.load_scalar"(%arg3, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %14 = "arith.trunci"(%13) : (i64) -> i32
    %15 = "arith.index_cast"(%14) : (i32) -> index
    %16 = "arith.addi"(%c4_index, %15) : (index, index) -> index
    %17 = "pto.load_scalar"(%arg3, %16) : (!pto.ptr<i64>, index) -> i64
    %18 = "arith.addi"(%c4_index, %12) : (index, index) -> index
    %19 = "pto.load_scalar"(%arg3, %18) : (!pto.ptr<i64>, index) -> i64
    %20 = "arith.subi"(%19, %17) : (i64, i64) -> i64
    %21 = "arith.divsi"(%20, %c2_i64) : (i64, i64) -> i64
    %22 = "arith.index_cast"(%21) : (i64) -> index
    %23 = "pto.addptr"(%arg0, %22) : (!pto.ptr<f16>, index) -> !pto.ptr<f16>
    %24 = "pto.make_tensor_view"(%23, %c16_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>
    %25 = "pto.partition_view"(%24, %c0_index, %c0_index, %c16_index, %c64_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x64xf16>
    "pto.tstore"(%a, %25) : (!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.partition_tensor_view<16x64xf16>) -> ()
    "pto.cmo.cacheinvalid"(%25) {mode = #pto<cache_line single_cache_line>} : (!pto.partition_tensor_view<16x64xf16>) -> ()
    %26 = "arith.index_cast"(%arg2) : (i32) -> index
    %27 = "pto.load_scalar"(%arg4, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %28 = "arith.trunci"(%27) : (i64) -> i32
    %29 = "arith.index_cast"(%28) : (i32) -> index
    %30 = "arith.addi"(%c4_index, %29) : (index, index) -> index
    %31 = "pto.load_scalar"(%arg4, %30) : (!pto.ptr<i64>, index) -> i64
    %32 = "arith.addi"(%c4_index, %26) : (index, index) -> index
    %33 = "pto.load_scalar"(%arg4, %32) : (!pto.ptr<i64>, index) -> i64
    %34 = "arith.subi"(%33, %31) : (i64, i64) -> i64
    %35 = "arith.divsi"(%34, %c4_i64) : (i64, i64) -> i64
    %36 = "arith.index_cast"(%35) : (i64) -> index
    %37 = "pto.addptr"(%arg1, %36) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
    %38 = "pto.make_tensor_view"(%37, %c2_index, %c1_index, %c1_index, %c2_index) {layout = #pto.layout<dn>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<?x?xi32>
    %signal_peer_pview = "pto.partition_view"(%38, %c0_index, %c0_index, %c1_index, %c1_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xi32>, index, index, index, index) -> !pto.partition_tensor_view<1x1xi32>
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.comm.tnotify"(%signal_peer_pview, %c1_i32) {notifyOp = #pto<notify_op set>} : (!pto.partition_tensor_view<1x1xi32>, i32) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f16>, !pto.ptr<i32>, i32, !pto.ptr<i64>, !pto.ptr<i64>) -> (), sym_name = "two_remote"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
