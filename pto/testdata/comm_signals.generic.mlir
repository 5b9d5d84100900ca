"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<i32>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c1_i32 = "arith.constant"() {value = 1 : i32} : () -> i32
    %signal_view = "pto.make_tensor_view"(%arg0, %c1_index, %c1_index) {layout = #pto.layout<nd>, operand_segment_sizes = array<i32: 1, 1, 1>} : (!pto.ptr<i32>, index, index) -> !pto.tensor_view<?xi32>
    %signal_pview = "pto.partition_view"(%signal_view, %c0_index, %c1_index) {operand_segment_sizes = array<i32: 1, 1, 1>} : (!pto.tensor_view<?xi32>, index, index) -> !pto.partition_tensor_view<1xi32>
    "pto.comm.tnotify"(%signal_pview, %c1_i32) {notifyOp = #pto<notify_op atomic_add>} : (!pto.partition_tensor_view<1xi32>, i32) -> ()
    %0 = "pto.partition_view"(%signal_view, %c0_index, %c1_index) {operand_segment_sizes = array<i32: 1, 1, 1>} : (!pto.tensor_view<?xi32>, index, index) -> !pto.partition_tensor_view<1xi32>
    "pto.comm.twait"(%0, %c1_i32) {cmp = #pto<wait_cmp ge>} : (!pto.partition_tensor_view<1xi32>, i32) -> ()
    %1 = "pto.partition_view"(%signal_view, %c0_index, %c1_index) {operand_segment_sizes = array<i32: 1, 1, 1>} : (!pto.tensor_view<?xi32>, index, index) -> !pto.partition_tensor_view<1xi32>
    %ok = "pto.comm.ttest"(%1, %c1_i32) {cmp = #pto<wait_cmp eq>} : (!pto.partition_tensor_view<1xi32>, i32) -> i1
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<i32>) -> (), sym_name = "comm_signals"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
