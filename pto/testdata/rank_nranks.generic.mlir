"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: i32, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c2_index = "arith.constant"() {value = 2 : index} : () -> index
    %c32_i64 = "arith.constant"() {value = 32 : i64} : () -> i64
    %c1_i32 = "arith.constant"() {value = 1 : i32} : () -> i32
    %signal_view = "pto.make_tensor_view"(%arg1, %c2_index, %c1_index, %c1_index, %c2_index) {layout = #pto.layout<dn>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<?x?xi32>
    %0 = "pto.load_scalar"(%arg3, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %my_rank = "arith.trunci"(%0) : (i64) -> i32
    %1 = "pto.load_scalar"(%arg3, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %2 = "arith.shrui"(%1, %c32_i64) : (i64, i64) -> i64
    %nranks = "arith.trunci"(%2) : (i64) -> i32
    %3 = "arith.addi"(%my_rank, %c1_i32) : (i32, i32) -> i32
    %right = "arith.remsi"(%3, %nranks) : (i32, i32) -> i32
    %4 = "arith.subi"(%my_rank, %c1_i32) : (i32, i32) -> i32
    %5 = "arith.addi"(%4, %nranks) : (i32, i32) -> i32
    %left = "arith.remsi"(%5, %nranks) : (i32, i32) -> i32
    %right_idx = "arith.index_cast"(%right) : (i32) -> index
    %6 = "func.call"(%arg4, %right_idx) {callee = @CommRemoteOffset_i32} : (!pto.ptr<i64>, index) -> index
    %7 = "pto.addptr"(%arg1, %6) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
    %8 = "pto.make_tensor_view"(%7, %c2_index, %c1_index, %c1_index, %c2_index) {layout = #pto.layout<dn>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<?x?xi32>
    %9 = "arith.index_cast"(%my_rank) : (i32) -> index
    %signal_peer_pview = "pto.partition_view"(%8, %9, %c0_index, %c1_index, %c1_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xi32>, index, index, index, index) -> !pto.partition_tensor_view<1x1xi32>
    "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
    "pto.comm.tnotify"(%signal_peer_pview, %c1_i32) {notifyOp = #pto<notify_op atomic_add>} : (!pto.partition_tensor_view<1x1xi32>, i32) -> ()
    %10 = "arith.index_cast"(%left) : (i32) -> index
    %signal_local_pview = "pto.partition_view"(%signal_view, %10, %c0_index, %c1_index, %c1_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xi32>, index, index, index, index) -> !pto.partition_tensor_view<1x1xi32>
    "pto.comm.twait"(%signal_local_pview, %c1_i32) {cmp = #pto<wait_cmp ge>} : (!pto.partition_tensor_view<1x1xi32>, i32) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f32>, !pto.ptr<i32>, i32, !pto.ptr<i64>, !pto.ptr<i64>) -> (), sym_name = "ring"} : () -> ()

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
  }) {function_type = (!pto.ptr<i64>, index) -> index, sym_name = "CommRemoteOffset_i32", sym_visibility = "private"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
