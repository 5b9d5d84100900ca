#include "textflag.h"

// FP32 add kernels (see kernels_amd64.go). Each does 16 (SSE2) or 32 (AVX)
// elements per iteration in four independent registers, then the scalar
// tail. The running sum is always the first operand, as in the Go loop
// acc[i] += src[i].

// func addF32SSE(acc, src []float32)
TEXT ·addF32SSE(SB), NOSPLIT, $0-48
	MOVQ acc_base+0(FP), DI
	MOVQ acc_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $-16, DX

addsse:
	CMPQ   AX, DX
	JAE    addssetail
	MOVUPS (DI)(AX*4), X0
	MOVUPS 16(DI)(AX*4), X1
	MOVUPS 32(DI)(AX*4), X2
	MOVUPS 48(DI)(AX*4), X3
	MOVUPS (SI)(AX*4), X4
	MOVUPS 16(SI)(AX*4), X5
	MOVUPS 32(SI)(AX*4), X6
	MOVUPS 48(SI)(AX*4), X7
	ADDPS  X4, X0
	ADDPS  X5, X1
	ADDPS  X6, X2
	ADDPS  X7, X3
	MOVUPS X0, (DI)(AX*4)
	MOVUPS X1, 16(DI)(AX*4)
	MOVUPS X2, 32(DI)(AX*4)
	MOVUPS X3, 48(DI)(AX*4)
	ADDQ   $16, AX
	JMP    addsse

addssetail:
	CMPQ  AX, CX
	JAE   addssedone
	MOVSS (DI)(AX*4), X0
	ADDSS (SI)(AX*4), X0
	MOVSS X0, (DI)(AX*4)
	INCQ  AX
	JMP   addssetail

addssedone:
	RET

// func addF32AVX(acc, src []float32)
TEXT ·addF32AVX(SB), NOSPLIT, $0-48
	MOVQ acc_base+0(FP), DI
	MOVQ acc_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $-32, DX

addavx:
	CMPQ    AX, DX
	JAE     addavxtail
	VMOVUPS (DI)(AX*4), Y0
	VMOVUPS 32(DI)(AX*4), Y1
	VMOVUPS 64(DI)(AX*4), Y2
	VMOVUPS 96(DI)(AX*4), Y3
	VADDPS  (SI)(AX*4), Y0, Y0
	VADDPS  32(SI)(AX*4), Y1, Y1
	VADDPS  64(SI)(AX*4), Y2, Y2
	VADDPS  96(SI)(AX*4), Y3, Y3
	VMOVUPS Y0, (DI)(AX*4)
	VMOVUPS Y1, 32(DI)(AX*4)
	VMOVUPS Y2, 64(DI)(AX*4)
	VMOVUPS Y3, 96(DI)(AX*4)
	ADDQ    $32, AX
	JMP     addavx

addavxtail:
	CMPQ   AX, CX
	JAE    addavxdone
	VMOVSS (DI)(AX*4), X0
	VADDSS (SI)(AX*4), X0, X0
	VMOVSS X0, (DI)(AX*4)
	INCQ   AX
	JMP    addavxtail

addavxdone:
	VZEROUPPER
	RET

// func foldF32AVX(dst, first []float32, srcs [][]float32)
// dst[i] = ((first[i] + srcs[0][i]) + srcs[1][i]) + ...: each block of 32
// elements stays in Y0-Y3 while every source is added to it, in order.
TEXT ·foldF32AVX(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ first_base+24(FP), BX
	MOVQ srcs_base+48(FP), R8
	MOVQ srcs_len+56(FP), R9
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $-32, DX

foldblock:
	CMPQ    AX, DX
	JAE     foldtail
	VMOVUPS (BX)(AX*4), Y0
	VMOVUPS 32(BX)(AX*4), Y1
	VMOVUPS 64(BX)(AX*4), Y2
	VMOVUPS 96(BX)(AX*4), Y3
	MOVQ    R8, R10           // the next source's slice header
	MOVQ    R9, R11           // sources left

foldsrc:
	TESTQ   R11, R11
	JZ      foldstore
	MOVQ    (R10), SI
	VADDPS  (SI)(AX*4), Y0, Y0
	VADDPS  32(SI)(AX*4), Y1, Y1
	VADDPS  64(SI)(AX*4), Y2, Y2
	VADDPS  96(SI)(AX*4), Y3, Y3
	ADDQ    $24, R10
	DECQ    R11
	JMP     foldsrc

foldstore:
	VMOVUPS Y0, (DI)(AX*4)
	VMOVUPS Y1, 32(DI)(AX*4)
	VMOVUPS Y2, 64(DI)(AX*4)
	VMOVUPS Y3, 96(DI)(AX*4)
	ADDQ    $32, AX
	JMP     foldblock

foldtail:
	CMPQ   AX, CX
	JAE    folddone
	VMOVSS (BX)(AX*4), X0
	MOVQ   R8, R10
	MOVQ   R9, R11

foldtailsrc:
	TESTQ  R11, R11
	JZ     foldtailstore
	MOVQ   (R10), SI
	VADDSS (SI)(AX*4), X0, X0
	ADDQ   $24, R10
	DECQ   R11
	JMP    foldtailsrc

foldtailstore:
	VMOVSS X0, (DI)(AX*4)
	INCQ   AX
	JMP    foldtail

folddone:
	VZEROUPPER
	RET

// func hasAVX() bool
// CPUID.1:ECX has AVX (bit 28) and OSXSAVE (bit 27), and XCR0 shows the OS
// saves XMM and YMM state (bits 1 and 2).
TEXT ·hasAVX(SB), NOSPLIT, $0-1
	MOVL  $1, AX
	XORL  CX, CX
	CPUID
	ANDL  $0x18000000, CX
	CMPL  CX, $0x18000000
	JNE   noavx
	XORL  CX, CX
	XGETBV
	ANDL  $6, AX
	CMPL  AX, $6
	JNE   noavx
	MOVB  $1, ret+0(FP)
	RET

noavx:
	MOVB $0, ret+0(FP)
	RET
