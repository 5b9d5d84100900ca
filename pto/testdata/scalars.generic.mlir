"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: i32, %arg1: index, %arg2: f32, %arg3: f16, %arg4: i32, %arg5: bf16, %arg6: i1):
    %cn1_i32 = "arith.constant"() {value = -1 : i32} : () -> i32
    %c0_i32 = "arith.constant"() {value = 0 : i32} : () -> i32
    %c2_i32 = "arith.constant"() {value = 2 : i32} : () -> i32
    %c3_i32 = "arith.constant"() {value = 3 : i32} : () -> i32
    %c7_i32 = "arith.constant"() {value = 7 : i32} : () -> i32
    %c1_i1 = "arith.constant"() {value = true} : () -> i1
    %c0_index = "arith.constant"() {value = 0 : index} : () -> index
    %cn2p5_f32 = "arith.constant"() {value = -2.5e+00 : f32} : () -> f32
    %c0_f32 = "arith.constant"() {value = 0.0e+00 : f32} : () -> f32
    %c0_f16 = "arith.constant"() {value = 0.0e+00 : f16} : () -> f16
    %c0_bf16 = "arith.constant"() {value = 0.0e+00 : bf16} : () -> bf16
    %s0 = "arith.addi"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s1 = "arith.addi"(%arg4, %c2_i32) : (i32, i32) -> i32
    %s2 = "arith.subi"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s3 = "arith.subi"(%arg4, %c2_i32) : (i32, i32) -> i32
    %s4 = "arith.muli"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s5 = "arith.muli"(%arg4, %c2_i32) : (i32, i32) -> i32
    %s6 = "arith.floordivsi"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s7 = "arith.divui"(%arg4, %c2_i32) : (i32, i32) -> i32
    %s8 = "arith.remsi"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s9 = "arith.remui"(%arg4, %c2_i32) : (i32, i32) -> i32
    %s10 = "arith.minsi"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s11 = "arith.minui"(%arg4, %c2_i32) : (i32, i32) -> i32
    %s12 = "arith.maxsi"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s13 = "arith.maxui"(%arg4, %c2_i32) : (i32, i32) -> i32
    %s14 = "math.ipowi"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s15 = "arith.andi"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s16 = "arith.andi"(%arg4, %c2_i32) : (i32, i32) -> i32
    %s17 = "arith.ori"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s18 = "arith.ori"(%arg4, %c2_i32) : (i32, i32) -> i32
    %s19 = "arith.xori"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s20 = "arith.xori"(%arg4, %c2_i32) : (i32, i32) -> i32
    %s21 = "arith.shli"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s22 = "arith.shli"(%arg4, %c2_i32) : (i32, i32) -> i32
    %s23 = "arith.shrsi"(%arg0, %c3_i32) : (i32, i32) -> i32
    %s24 = "arith.shrui"(%arg4, %c2_i32) : (i32, i32) -> i32
    %0 = "arith.extf"(%arg3) : (f16) -> f32
    %s25 = "arith.addf"(%arg2, %0) : (f32, f32) -> f32
    %1 = "arith.extf"(%arg3) : (f16) -> f32
    %s26 = "arith.subf"(%arg2, %1) : (f32, f32) -> f32
    %2 = "arith.extf"(%arg3) : (f16) -> f32
    %s27 = "arith.mulf"(%arg2, %2) : (f32, f32) -> f32
    %3 = "arith.extf"(%arg3) : (f16) -> f32
    %s28 = "arith.divf"(%arg2, %3) : (f32, f32) -> f32
    %4 = "arith.extf"(%arg3) : (f16) -> f32
    %5 = "arith.divf"(%arg2, %4) : (f32, f32) -> f32
    %s29 = "math.floor"(%5) : (f32) -> f32
    %6 = "arith.extf"(%arg3) : (f16) -> f32
    %s30 = "arith.remf"(%arg2, %6) : (f32, f32) -> f32
    %7 = "arith.extf"(%arg3) : (f16) -> f32
    %s31 = "arith.minf"(%arg2, %7) : (f32, f32) -> f32
    %8 = "arith.extf"(%arg3) : (f16) -> f32
    %s32 = "arith.maxf"(%arg2, %8) : (f32, f32) -> f32
    %9 = "arith.extf"(%arg3) : (f16) -> f32
    %s33 = "math.powf"(%arg2, %9) : (f32, f32) -> f32
    %10 = "arith.index_cast"(%arg0) : (i32) -> index
    %s34 = "arith.cmpi"(%10, %arg1) {predicate = 0 : i64} : (index, index) -> i1
    %s35 = "arith.cmpi"(%arg4, %c7_i32) {predicate = 0 : i64} : (i32, i32) -> i1
    %11 = "arith.sitofp"(%arg0) : (i32) -> f32
    %s36 = "arith.cmpf"(%arg2, %11) {predicate = 1 : i64} : (f32, f32) -> i1
    %12 = "arith.index_cast"(%arg0) : (i32) -> index
    %s37 = "arith.cmpi"(%12, %arg1) {predicate = 1 : i64} : (index, index) -> i1
    %s38 = "arith.cmpi"(%arg4, %c7_i32) {predicate = 1 : i64} : (i32, i32) -> i1
    %13 = "arith.sitofp"(%arg0) : (i32) -> f32
    %s39 = "arith.cmpf"(%arg2, %13) {predicate = 13 : i64} : (f32, f32) -> i1
    %14 = "arith.index_cast"(%arg0) : (i32) -> index
    %s40 = "arith.cmpi"(%14, %arg1) {predicate = 2 : i64} : (index, index) -> i1
    %s41 = "arith.cmpi"(%arg4, %c7_i32) {predicate = 6 : i64} : (i32, i32) -> i1
    %15 = "arith.sitofp"(%arg0) : (i32) -> f32
    %s42 = "arith.cmpf"(%arg2, %15) {predicate = 4 : i64} : (f32, f32) -> i1
    %16 = "arith.index_cast"(%arg0) : (i32) -> index
    %s43 = "arith.cmpi"(%16, %arg1) {predicate = 3 : i64} : (index, index) -> i1
    %s44 = "arith.cmpi"(%arg4, %c7_i32) {predicate = 7 : i64} : (i32, i32) -> i1
    %17 = "arith.sitofp"(%arg0) : (i32) -> f32
    %s45 = "arith.cmpf"(%arg2, %17) {predicate = 5 : i64} : (f32, f32) -> i1
    %18 = "arith.index_cast"(%arg0) : (i32) -> index
    %s46 = "arith.cmpi"(%18, %arg1) {predicate = 4 : i64} : (index, index) -> i1
    %s47 = "arith.cmpi"(%arg4, %c7_i32) {predicate = 8 : i64} : (i32, i32) -> i1
    %19 = "arith.sitofp"(%arg0) : (i32) -> f32
    %s48 = "arith.cmpf"(%arg2, %19) {predicate = 2 : i64} : (f32, f32) -> i1
    %20 = "arith.index_cast"(%arg0) : (i32) -> index
    %s49 = "arith.cmpi"(%20, %arg1) {predicate = 5 : i64} : (index, index) -> i1
    %s50 = "arith.cmpi"(%arg4, %c7_i32) {predicate = 9 : i64} : (i32, i32) -> i1
    %21 = "arith.sitofp"(%arg0) : (i32) -> f32
    %s51 = "arith.cmpf"(%arg2, %21) {predicate = 3 : i64} : (f32, f32) -> i1
    %22 = "arith.extf"(%arg3) : (f16) -> f32
    %23 = "arith.extf"(%arg5) : (bf16) -> f32
    %s52 = "arith.cmpf"(%22, %23) {predicate = 4 : i64} : (f32, f32) -> i1
    %s53 = "arith.andi"(%arg6, %s52) : (i1, i1) -> i1
    %24 = "arith.xori"(%arg6, %c1_i1) : (i1, i1) -> i1
    %s54 = "arith.ori"(%s53, %24) : (i1, i1) -> i1
    %s55 = "arith.xori"(%arg6, %c1_i1) : (i1, i1) -> i1
    %s56 = "arith.subi"(%c0_i32, %arg0) : (i32, i32) -> i32
    %s57 = "arith.negf"(%arg2) : (f32) -> f32
    %s58 = "arith.xori"(%arg0, %cn1_i32) : (i32, i32) -> i32
    %s59 = "math.absi"(%arg0) : (i32) -> i32
    %s60 = "math.absf"(%arg2) : (f32) -> f32
    %s61 = "arith.trunci"(%arg0) : (i32) -> i8
    %s62 = "arith.extsi"(%arg0) : (i32) -> i64
    %s63 = "arith.index_cast"(%arg0) : (i32) -> index
    %s64 = "arith.sitofp"(%arg0) : (i32) -> f32
    %s65 = "arith.sitofp"(%arg0) : (i32) -> f16
    %s66 = "arith.sitofp"(%arg0) : (i32) -> bf16
    %s67 = "arith.trunci"(%arg0) : (i32) -> i16
    %s68 = "arith.cmpi"(%arg0, %c0_i32) {predicate = 1 : i64} : (i32, i32) -> i1
    %s69 = "arith.index_cast"(%arg1) : (index) -> i8
    %s70 = "arith.index_cast"(%arg1) : (index) -> i64
    %25 = "arith.index_cast"(%arg1) : (index) -> i64
    %s72 = "arith.sitofp"(%25) : (i64) -> f32
    %26 = "arith.index_cast"(%arg1) : (index) -> i64
    %s73 = "arith.sitofp"(%26) : (i64) -> f16
    %27 = "arith.index_cast"(%arg1) : (index) -> i64
    %s74 = "arith.sitofp"(%27) : (i64) -> bf16
    %s75 = "arith.index_cast"(%arg1) : (index) -> i16
    %s76 = "arith.cmpi"(%arg1, %c0_index) {predicate = 1 : i64} : (index, index) -> i1
    %s77 = "arith.fptosi"(%arg2) : (f32) -> i8
    %s78 = "arith.fptosi"(%arg2) : (f32) -> i64
    %28 = "arith.fptosi"(%arg2) : (f32) -> i64
    %s79 = "arith.index_cast"(%28) : (i64) -> index
    %s81 = "arith.truncf"(%arg2) : (f32) -> f16
    %s82 = "arith.truncf"(%arg2) : (f32) -> bf16
    %s83 = "arith.fptoui"(%arg2) : (f32) -> i16
    %s84 = "arith.cmpf"(%arg2, %c0_f32) {predicate = 13 : i64} : (f32, f32) -> i1
    %s85 = "arith.fptosi"(%arg3) : (f16) -> i8
    %s86 = "arith.fptosi"(%arg3) : (f16) -> i64
    %29 = "arith.fptosi"(%arg3) : (f16) -> i64
    %s87 = "arith.index_cast"(%29) : (i64) -> index
    %s88 = "arith.extf"(%arg3) : (f16) -> f32
    %30 = "arith.extf"(%arg3) : (f16) -> f32
    %s90 = "arith.truncf"(%30) : (f32) -> bf16
    %s91 = "arith.fptoui"(%arg3) : (f16) -> i16
    %s92 = "arith.cmpf"(%arg3, %c0_f16) {predicate = 13 : i64} : (f16, f16) -> i1
    %s93 = "arith.trunci"(%arg4) : (i32) -> i8
    %s94 = "arith.extui"(%arg4) : (i32) -> i64
    %s95 = "arith.index_cast"(%arg4) : (i32) -> index
    %s96 = "arith.uitofp"(%arg4) : (i32) -> f32
    %s97 = "arith.uitofp"(%arg4) : (i32) -> f16
    %s98 = "arith.uitofp"(%arg4) : (i32) -> bf16
    %s99 = "arith.trunci"(%arg4) : (i32) -> i16
    %s100 = "arith.cmpi"(%arg4, %c0_i32) {predicate = 1 : i64} : (i32, i32) -> i1
    %s101 = "arith.fptosi"(%arg5) : (bf16) -> i8
    %s102 = "arith.fptosi"(%arg5) : (bf16) -> i64
    %31 = "arith.fptosi"(%arg5) : (bf16) -> i64
    %s103 = "arith.index_cast"(%31) : (i64) -> index
    %s104 = "arith.extf"(%arg5) : (bf16) -> f32
    %32 = "arith.extf"(%arg5) : (bf16) -> f32
    %s105 = "arith.truncf"(%32) : (f32) -> f16
    %s107 = "arith.fptoui"(%arg5) : (bf16) -> i16
    %s108 = "arith.cmpf"(%arg5, %c0_bf16) {predicate = 13 : i64} : (bf16, bf16) -> i1
    %s109 = "arith.extui"(%arg6) : (i1) -> i8
    %s110 = "arith.extui"(%arg6) : (i1) -> i64
    %33 = "arith.extui"(%arg6) : (i1) -> i64
    %s111 = "arith.index_cast"(%33) : (i64) -> index
    %s112 = "arith.uitofp"(%arg6) : (i1) -> f32
    %s113 = "arith.uitofp"(%arg6) : (i1) -> f16
    %s114 = "arith.uitofp"(%arg6) : (i1) -> bf16
    %s115 = "arith.extui"(%arg6) : (i1) -> i16
    %34 = "arith.index_cast"(%arg1) : (index) -> i64
    %35 = "arith.sitofp"(%34) : (i64) -> f32
    %s118 = "arith.addf"(%35, %cn2p5_f32) : (f32, f32) -> f32
    "func.return"(%s118, %arg1) : (f32, index) -> ()
  }) {function_type = (i32, index, f32, f16, i32, bf16, i1) -> (f32, index), sym_name = "scalars"} : () -> ()
}) {pto.target_arch = "a2a3"} : () -> ()
