"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<f16>, %arg2: i32, %arg3: !pto.ptr<i64>):
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c2_i64 = "arith.constant"() {value = 2 : i64} : () -> i64
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c2_index = "arith.constant"() {value = 2 : index} : () -> index
    %c4_index = "arith.constant"() {value = 4 : index} : () -> index
    %c16_index = "arith.constant"() {value = 16 : index} : () -> index
    %c64_index = "arith.constant"() {value = 64 : index} : () -> index
    %src_view = "pto.make_tensor_view"(%arg1, %c16_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<f16>, index, index, index, index) -> !pto.tensor_view<?x?xf16>
    %tput_stage = "pto.alloc_tile"(%c0_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
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
    %dst_peer_pview = "pto.partition_view"(%11, %c0_index, %c0_index, %c16_index, %c64_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x64xf16>
    %src_local_pview = "pto.partition_view"(%src_view, %c0_index, %c0_index, %c16_index, %c64_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xf16>, index, index, index, index) -> !pto.partition_tensor_view<16x64xf16>
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.comm.tput"(%dst_peer_pview, %src_local_pview, %tput_stage) {atomicType = #pto<atomic_type atomic_none>} : (!pto.partition_tensor_view<16x64xf16>, !pto.partition_tensor_view<16x64xf16>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.cmo.cacheinvalid"(%dst_peer_pview) {mode = #pto<cache_line single_cache_line>} : (!pto.partition_tensor_view<16x64xf16>) -> ()
    "pto.fence.barrier_all"() {scope = #pto.fence_scope<gm>} : () -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f16>, !pto.ptr<f16>, i32, !pto.ptr<i64>) -> (), sym_name = "put"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
