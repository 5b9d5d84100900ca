"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !pto.ptr<i32>, %arg1: i32, %arg2: i32, %arg3: !pto.ptr<i64>, %__pypto_deferred_raw_args: !pto.ptr<i64>):
    %cn1_index = "arith.constant"() {value = -1 : index} : () -> index
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %c1_index = "arith.constant"() {value = 1 : index} : () -> index
    %c2_index = "arith.constant"() {value = 2 : index} : () -> index
    %c4_index = "arith.constant"() {value = 4 : index} : () -> index
    %c8_index = "arith.constant"() {value = 8 : index} : () -> index
    %c16_index = "arith.constant"() {value = 16 : index} : () -> index
    %0 = "arith.index_cast"(%arg1) : (i32) -> index
    %1 = "arith.cmpi"(%0, %c0_index) {predicate = 2 : i64} : (index, index) -> i1
    %2 = "arith.cmpi"(%0, %c4_index) {predicate = 5 : i64} : (index, index) -> i1
    %3 = "arith.ori"(%1, %2) : (i1, i1) -> i1
    %4 = "arith.muli"(%0, %c16_index) : (index, index) -> index
    %5 = "arith.addi"(%c0_index, %4) : (index, index) -> index
    %6 = "arith.cmpi"(%c2_index, %c0_index) {predicate = 2 : i64} : (index, index) -> i1
    %7 = "arith.cmpi"(%c2_index, %c8_index) {predicate = 5 : i64} : (index, index) -> i1
    %8 = "arith.ori"(%6, %7) : (i1, i1) -> i1
    %9 = "arith.ori"(%3, %8) : (i1, i1) -> i1
    %10 = "arith.muli"(%c2_index, %c1_index) : (index, index) -> index
    %11 = "arith.addi"(%5, %10) : (index, index) -> index
    %12 = "arith.select"(%9, %cn1_index, %11) : (i1, index, index) -> index
    %13 = "arith.index_cast"(%12) : (index) -> i64
    %14 = "arith.extsi"(%arg2) : (i32) -> i64
    "func.call"(%__pypto_deferred_raw_args, %arg0, %13, %14) {callee = @pypto_register_counter_completion} : (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) -> ()
    "func.return"() : () -> ()
  }) {function_type = (!pto.ptr<i32>, i32, i32, !pto.ptr<i64>, !pto.ptr<i64>) -> (), sym_name = "kernel"} : () -> ()

  "func.func"() ({
  }) {function_type = (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) -> (), sym_name = "pypto_register_counter_completion", sym_visibility = "private"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
