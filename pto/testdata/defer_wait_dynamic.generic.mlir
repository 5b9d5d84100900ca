"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<i32>, %arg1: i64, %arg2: !pto.ptr<i64>, %arg3: index, %__pypto_deferred_raw_args: !pto.ptr<i64>):
    %cn1_index = "arith.constant"() {value = -1 : index} : () -> index
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %0 = "arith.subi"(%arg3, %c1_index) : (index, index) -> index
    %1 = "arith.cmpi"(%0, %c0_index) {predicate = 2 : i64} : (index, index) -> i1
    %2 = "arith.cmpi"(%0, %arg3) {predicate = 5 : i64} : (index, index) -> i1
    %3 = "arith.ori"(%1, %2) : (i1, i1) -> i1
    %4 = "arith.muli"(%0, %c1_index) : (index, index) -> index
    %5 = "arith.addi"(%c0_index, %4) : (index, index) -> index
    %6 = "arith.select"(%3, %cn1_index, %5) : (i1, index, index) -> index
    %7 = "arith.index_cast"(%6) : (index) -> i64
    "func.call"(%__pypto_deferred_raw_args, %arg0, %7, %arg1) {callee = @pypto_register_counter_completion} : (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<i32>, i64, !pto.ptr<i64>, index, !pto.ptr<i64>) -> (), sym_name = "kernel"} : () -> ()

  "func.func"() ({
  }) {function_type = (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) -> (), sym_name = "pypto_register_counter_completion", sym_visibility = "private"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
