"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<bf16>, %arg1: !pto.ptr<bf16>, %arg2: i32, %arg3: !pto.ptr<i64>):
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c16_index = "arith.constant"() {value = 16 : index} : () -> index
    %c64_index = "arith.constant"() {value = 64 : index} : () -> index
    %src_view = "pto.make_tensor_view"(%arg1, %c16_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<bf16>, index, index, index, index) -> !pto.tensor_view<?x?xbf16>
    %tput_stage = "pto.alloc_tile"(%c0_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=bf16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    %peer_idx = "arith.index_cast"(%arg2) : (i32) -> index
    %0 = "func.call"(%arg3, %peer_idx) {callee = @CommRemoteOffset_bf16} : (!pto.ptr<i64>, index) -> index
    %1 = "pto.addptr"(%arg0, %0) : (!pto.ptr<bf16>, index) -> !pto.ptr<bf16>
    %2 = "pto.make_tensor_view"(%1, %c16_index, %c64_index, %c64_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<bf16>, index, index, index, index) -> !pto.tensor_view<?x?xbf16>
    %dst_peer_pview = "pto.partition_view"(%2, %c0_index, %c0_index, %c16_index, %c64_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xbf16>, index, index, index, index) -> !pto.partition_tensor_view<16x64xbf16>
    %src_local_pview = "pto.partition_view"(%src_view, %c0_index, %c0_index, %c16_index, %c64_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xbf16>, index, index, index, index) -> !pto.partition_tensor_view<16x64xbf16>
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.comm.tput"(%dst_peer_pview, %src_local_pview, %tput_stage) {atomicType = #pto<atomic_type atomic_add>} : (!pto.partition_tensor_view<16x64xbf16>, !pto.partition_tensor_view<16x64xbf16>, !pto.tile_buf<loc=vec, dtype=bf16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.cmo.cacheinvalid"(%dst_peer_pview) {mode = #pto<cache_line single_cache_line>} : (!pto.partition_tensor_view<16x64xbf16>) -> ()
    "pto.fence.barrier_all"() {scope = #pto.fence_scope<gm>} : () -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<bf16>, !pto.ptr<bf16>, i32, !pto.ptr<i64>) -> (), sym_name = "put"} : () -> ()

  "func.func"() ({
  ^bb0(%ctx: !pto.ptr<i64>, %peer: index):
    %c_r = "arith.constant"() {value = 2 : index} : () -> index
    %c_w = "arith.constant"() {value = 4 : index} : () -> index
    %rk_pair = "pto.load_scalar"(%ctx, %c_r) : (!pto.ptr<i64>, index) -> i64
    %rk_i32 = "arith.trunci"(%rk_pair) : (i64) -> i32
    %rk_idx = "arith.index_cast"(%rk_i32) : (i32) -> index
    %lb_off = "arith.addi"(%c_w, %rk_idx) : (index, index) -> index
    %lbase = "pto.load_scalar"(%ctx, %lb_off) : (!pto.ptr<i64>, index) -> i64
    %pb_off = "arith.addi"(%c_w, %peer) : (index, index) -> index
    %pbase = "pto.load_scalar"(%ctx, %pb_off) : (!pto.ptr<i64>, index) -> i64
    %dbytes = "arith.subi"(%pbase, %lbase) : (i64, i64) -> i64
    %esize = "arith.constant"() {value = 2 : i64} : () -> i64
    %delems_i = "arith.divsi"(%dbytes, %esize) : (i64, i64) -> i64
    %delems = "arith.index_cast"(%delems_i) : (i64) -> index
    "func.return"(%delems) : (index) -> ()
  }) {function_type = (!pto.ptr<i64>, index) -> index, sym_name = "CommRemoteOffset_bf16", sym_visibility = "private"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
