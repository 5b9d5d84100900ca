module attributes {pto.target_arch = "a2a3"} {
  func.func @k(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: i32, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>) {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c2_index = arith.constant 2 : index
    %c1_i32 = arith.constant 1 : i32
    %peer_idx = arith.index_cast %arg2 : i32 to index
    %0 = func.call @CommRemoteOffset_i32(%arg4, %peer_idx) : (!pto.ptr<i64>, index) -> index
    %1 = pto.addptr %arg1, %0 : !pto.ptr<i32> -> !pto.ptr<i32>
    %2 = pto.make_tensor_view %1, shape = [%c2_index, %c1_index], strides = [%c1_index, %c2_index] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
    %signal_peer_pview = pto.partition_view %2, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
    pto.barrier <PIPE_ALL>
    pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op set>}
    return
  }

  func.func private @CommRemoteOffset_i32(%ctx: !pto.ptr<i64>, %peer: index) -> index {
    %c_r = arith.constant 2 : index
    %c_w = arith.constant 4 : index
    %rk_pair = pto.load_scalar %ctx[%c_r] : !pto.ptr<i64> -> i64
    %rk_i32 = arith.trunci %rk_pair : i64 to i32
    %rk_idx = arith.index_cast %rk_i32 : i32 to index
    %lb_off = arith.addi %c_w, %rk_idx : index
    %lbase = pto.load_scalar %ctx[%lb_off] : !pto.ptr<i64> -> i64
    %pb_off = arith.addi %c_w, %peer : index
    %pbase = pto.load_scalar %ctx[%pb_off] : !pto.ptr<i64> -> i64
    %dbytes = arith.subi %pbase, %lbase : i64
    %esize = arith.constant 4 : i64
    %delems_i = arith.divsi %dbytes, %esize : i64
    %delems = arith.index_cast %delems_i : i64 to index
    return %delems : index
  }
}
