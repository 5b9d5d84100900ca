module attributes {pto.target_arch = "a2a3"} {
  func.func @comm_signals(%arg0: !pto.ptr<i32>) {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c1_i32 = arith.constant 1 : i32
    %signal_view = pto.make_tensor_view %arg0, shape = [%c1_index], strides = [%c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?xi32>
    %signal_pview = pto.partition_view %signal_view, offsets = [%c0_index], sizes = [%c1_index] : !pto.tensor_view<?xi32> -> !pto.partition_tensor_view<1xi32>
    pto.comm.tnotify(%signal_pview, %c1_i32 : !pto.partition_tensor_view<1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
    %0 = pto.partition_view %signal_view, offsets = [%c0_index], sizes = [%c1_index] : !pto.tensor_view<?xi32> -> !pto.partition_tensor_view<1xi32>
    pto.comm.twait(%0, %c1_i32 : !pto.partition_tensor_view<1xi32>, i32) {cmp = #pto<wait_cmp ge>}
    %1 = pto.partition_view %signal_view, offsets = [%c0_index], sizes = [%c1_index] : !pto.tensor_view<?xi32> -> !pto.partition_tensor_view<1xi32>
    %ok = pto.comm.ttest(%1, %c1_i32 : !pto.partition_tensor_view<1xi32>, i32) {cmp = #pto<wait_cmp eq>} -> i1
    return
  }
}
