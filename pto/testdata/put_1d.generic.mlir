"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: i32, %arg3: !pto.ptr<i64>):
    %c0_i64 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c128_index = "arith.constant"() {value = 128 : index} : () -> index
    %src_view = "pto.make_tensor_view"(%arg1, %c128_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 1, 1>} : (!pto.ptr<f32>, index, index) -> !pto.tensor_view<?xf32>
    %tput_stage = "pto.alloc_tile"(%c0_i64) {operand_segment_sizes = array<i32: 1, 0, 0>} : (i64) -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=128, v_row=1, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    %peer_idx = "arith.index_cast"(%arg2) : (i32) -> index
    %0 = "func.call"(%arg3, %peer_idx) {callee = @CommRemoteOffset_f32} : (!pto.ptr<i64>, index) -> index
    %1 = "pto.addptr"(%arg0, %0) : (!pto.ptr<f32>, index) -> !pto.ptr<f32>
    %2 = "pto.make_tensor_view"(%1, %c128_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 1, 1>} : (!pto.ptr<f32>, index, index) -> !pto.tensor_view<?xf32>
    %dst_peer_pview = "pto.partition_view"(%2, %c0_index, %c128_index) {operand_segment_sizes = array<i32: 1, 1, 1>} : (!pto.tensor_view<?xf32>, index, index) -> !pto.partition_tensor_view<128xf32>
    %src_local_pview = "pto.partition_view"(%src_view, %c0_index, %c128_index) {operand_segment_sizes = array<i32: 1, 1, 1>} : (!pto.tensor_view<?xf32>, index, index) -> !pto.partition_tensor_view<128xf32>
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.comm.tput"(%dst_peer_pview, %src_local_pview, %tput_stage) {atomicType = #pto<atomic_type atomic_none>} : (!pto.partition_tensor_view<128xf32>, !pto.partition_tensor_view<128xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=128, v_row=1, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>) -> ()
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.cmo.cacheinvalid"(%dst_peer_pview) {mode = #pto<cache_line single_cache_line>} : (!pto.partition_tensor_view<128xf32>) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f32>, !pto.ptr<f32>, i32, !pto.ptr<i64>) -> (), sym_name = "put_1d"} : () -> ()

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
    %esize = "arith.constant"() {value = 4 : i64} : () -> i64
    %delems_i = "arith.divsi"(%dbytes, %esize) : (i64, i64) -> i64
    %delems = "arith.index_cast"(%delems_i) : (i64) -> index
    "func.return"(%delems) : (index) -> ()
  }) {function_type = (!pto.ptr<i64>, index) -> index, sym_name = "CommRemoteOffset_f32", sym_visibility = "private"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
