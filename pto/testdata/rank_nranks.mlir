module attributes {pto.target_arch = "a2a3"} {
  func.func @ring(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: i32, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>) {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c2_index = arith.constant 2 : index
    %c32_i64 = arith.constant 32 : i64
    %c1_i32 = arith.constant 1 : i32
    %signal_view = pto.make_tensor_view %arg1, shape = [%c2_index, %c1_index], strides = [%c1_index, %c2_index] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
    %0 = pto.load_scalar %arg3[%c2_index] : !pto.ptr<i64> -> i64
    %my_rank = arith.trunci %0 : i64 to i32
    %1 = pto.load_scalar %arg3[%c2_index] : !pto.ptr<i64> -> i64
    %2 = arith.shrui %1, %c32_i64 : i64
    %nranks = arith.trunci %2 : i64 to i32
    %3 = arith.addi %my_rank, %c1_i32 : i32
    %right = arith.remsi %3, %nranks : i32
    %4 = arith.subi %my_rank, %c1_i32 : i32
    %5 = arith.addi %4, %nranks : i32
    %left = arith.remsi %5, %nranks : i32
    %right_idx = arith.index_cast %right : i32 to index
    %6 = func.call @CommRemoteOffset_i32(%arg4, %right_idx) : (!pto.ptr<i64>, index) -> index
    %7 = pto.addptr %arg1, %6 : !pto.ptr<i32> -> !pto.ptr<i32>
    %8 = pto.make_tensor_view %7, shape = [%c2_index, %c1_index], strides = [%c1_index, %c2_index] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
    %9 = arith.index_cast %my_rank : i32 to index
    %signal_peer_pview = pto.partition_view %8, offsets = [%9, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
    pto.barrier <PIPE_ALL>
    pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
    %10 = arith.index_cast %left : i32 to index
    %signal_local_pview = pto.partition_view %signal_view, offsets = [%10, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
    pto.comm.twait(%signal_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
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
