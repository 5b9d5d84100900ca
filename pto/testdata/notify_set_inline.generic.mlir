"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: i32, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c2_index = "arith.constant"() {value = 2 : index} : () -> index
    %c4_index = "arith.constant"() {value = 4 : index} : () -> index
    %c4_i64 = "arith.constant"() {value = 4 : i64} : () -> i64
    %c1_i32 = "arith.constant"() {value = 1 : i32} : () -> i32
    %peer_idx = "arith.index_cast"(%arg2) : (i32) -> index
    %0 = "pto.load_scalar"(%arg4, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %1 = "arith.trunci"(%0) : (i64) -> i32
    %2 = "arith.index_cast"(%1) : (i32) -> index
    %3 = "arith.addi"(%c4_index, %2) : (index, index) -> index
    %4 = "pto.load_scalar"(%arg4, %3) : (!pto.ptr<i64>, index) -> i64
    %5 = "arith.addi"(%c4_index, %peer_idx) : (index, index) -> index
    %6 = "pto.load_scalar"(%arg4, %5) : (!pto.ptr<i64>, index) -> i64
    %7 = "arith.subi"(%6, %4) : (i64, i64) -> i64
    %8 = "arith.divsi"(%7, %c4_i64) : (i64, i64) -> i64
    %9 = "arith.index_cast"(%8) : (i64) -> index
    %10 = "pto.addptr"(%arg1, %9) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
    %11 = "pto.make_tensor_view"(%10, %c2_index, %c1_index, %c1_index, %c2_index) {layout = #pto.layout<dn>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<?x?xi32>
    %signal_peer_pview = "pto.partition_view"(%11, %c0_index, %c0_index, %c1_index, %c1_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xi32>, index, index, index, index) -> !pto.partition_tensor_view<1x1xi32>
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.comm.tnotify"(%signal_peer_pview, %c1_i32) {notifyOp = #pto<notify_op set>} : (!pto.partition_tensor_view<1x1xi32>, i32) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f32>, !pto.ptr<i32>, i32, !pto.ptr<i64>, !pto.ptr<i64>) -> (), sym_name = "k"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
