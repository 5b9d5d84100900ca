module attributes {pto.target_arch = "a2a3"} {
  func.func @k(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: i32, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>) {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c2_index = arith.constant 2 : index
    %c4_index = arith.constant 4 : index
    %c4_i64 = arith.constant 4 : i64
    %c1_i32 = arith.constant 1 : i32
    %peer_idx = arith.index_cast %arg2 : i32 to index
    %0 = pto.load_scalar %arg4[%c2_index] : !pto.ptr<i64> -> i64
    %1 = arith.trunci %0 : i64 to i32
    %2 = arith.index_cast %1 : i32 to index
    %3 = arith.addi %c4_index, %2 : index
    %4 = pto.load_scalar %arg4[%3] : !pto.ptr<i64> -> i64
    %5 = arith.addi %c4_index, %peer_idx : index
    %6 = pto.load_scalar %arg4[%5] : !pto.ptr<i64> -> i64
    %7 = arith.subi %6, %4 : i64
    %8 = arith.divsi %7, %c4_i64 : i64
    %9 = arith.index_cast %8 : i64 to index
    %10 = pto.addptr %arg1, %9 : !pto.ptr<i32> -> !pto.ptr<i32>
    %11 = pto.make_tensor_view %10, shape = [%c2_index, %c1_index], strides = [%c1_index, %c2_index] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
    %signal_peer_pview = pto.partition_view %11, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
    pto.barrier <PIPE_ALL>
    pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op set>}
    return
  }
}
