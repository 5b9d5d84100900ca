"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: i32, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>):
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c2_index = "arith.constant"() {value = 2 : index} : () -> index
    %c32_i64 = "arith.constant"() {value = 32 : i64} : () -> i64
    %0 = "pto.load_scalar"(%arg4, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %my_rank = "arith.trunci"(%0) : (i64) -> i32
    %1 = "pto.load_scalar"(%arg4, %c2_index) : (!pto.ptr<i64>, index) -> i64
    %2 = "arith.shrui"(%1, %c32_i64) : (i64, i64) -> i64
    %nranks = "arith.trunci"(%2) : (i64) -> i32
    %3 = "arith.index_cast"(%nranks) : (i32) -> index
    "scf.for"(%c0_index, %3, %c1_index) ({
    ^bb0(%i: index):
      %4 = "arith.index_cast"(%my_rank) : (i32) -> index
      %5 = "arith.cmpi"(%i, %4) {predicate = 1 : i64} : (index, index) -> i1
      "scf.if"(%5) ({
        %6 = "func.call"(%arg4, %i) {callee = @CommRemoteOffset_i32} : (!pto.ptr<i64>, index) -> index
        %7 = "pto.addptr"(%arg1, %6) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
        %8 = "pto.make_tensor_view"(%7, %c2_index, %c1_index, %c1_index, %c2_index) {layout = #pto.layout<dn>, operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<?x?xi32>
        %9 = "arith.index_cast"(%my_rank) : (i32) -> index
        %signal_peer_pview = "pto.partition_view"(%8, %9, %c0_index, %c1_index, %c1_index) {operand_segment_sizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<?x?xi32>, index, index, index, index) -> !pto.partition_tensor_view<1x1xi32>
        %10 = "arith.index_cast"(%i) : (index) -> i32
        "pto.barrier"() {pipe = #pto<pipe PIPE_ALL>} : () -> ()
        "pto.comm.tnotify"(%signal_peer_pview, %10) {notifyOp = #pto<notify_op atomic_add>} : (!pto.partition_tensor_view<1x1xi32>, i32) -> ()
        "scf.yield"() : () -> ()
      }, {
      }) : (i1) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<f32>, !pto.ptr<i32>, i32, !pto.ptr<i64>, !pto.ptr<i64>) -> (), sym_name = "notify_loop"} : () -> ()

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
