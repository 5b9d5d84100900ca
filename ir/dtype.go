package ir

import "fmt"

// DataType is PyPTO's one-byte element type code (include/pypto/core/dtype.h).
type DataType uint8

// Data types with their upstream codes.
const (
	BOOL      DataType = 0x00
	INT4      DataType = 0x10
	INT8      DataType = 0x11
	INT16     DataType = 0x12
	INT32     DataType = 0x13
	INT64     DataType = 0x14
	INDEX     DataType = 0x15
	UINT4     DataType = 0x20
	UINT8     DataType = 0x21
	UINT16    DataType = 0x22
	UINT32    DataType = 0x23
	UINT64    DataType = 0x24
	FP4       DataType = 0x30
	FP8E4M3FN DataType = 0x31
	FP8E5M2   DataType = 0x32
	FP16      DataType = 0x33
	FP32      DataType = 0x34
	FP8E8M0   DataType = 0x36
	BF16      DataType = 0x40
	HF4       DataType = 0x41
	HF8       DataType = 0x42
	TASK_ID   DataType = 0x50
)

type dtypeInfo struct {
	name string
	bits int
}

var dtypeTable = map[DataType]dtypeInfo{
	BOOL: {"BOOL", 1}, INT4: {"INT4", 4}, INT8: {"INT8", 8}, INT16: {"INT16", 16},
	INT32: {"INT32", 32}, INT64: {"INT64", 64}, INDEX: {"INDEX", 64},
	UINT4: {"UINT4", 4}, UINT8: {"UINT8", 8}, UINT16: {"UINT16", 16}, UINT32: {"UINT32", 32},
	UINT64: {"UINT64", 64}, FP4: {"FP4", 4}, FP8E4M3FN: {"FP8E4M3FN", 8}, FP8E5M2: {"FP8E5M2", 8},
	FP16: {"FP16", 16}, FP32: {"FP32", 32}, FP8E8M0: {"FP8E8M0", 8}, BF16: {"BF16", 16},
	HF4: {"HF4", 4}, HF8: {"HF8", 8}, TASK_ID: {"TASK_ID", 64},
}

// AllDataTypes lists every known data type in code order.
func AllDataTypes() []DataType {
	out := make([]DataType, 0, len(dtypeTable))
	for c := 0; c < 256; c++ {
		if _, ok := dtypeTable[DataType(c)]; ok {
			out = append(out, DataType(c))
		}
	}
	return out
}

// Valid reports whether d is a known code.
func (d DataType) Valid() bool { _, ok := dtypeTable[d]; return ok }

// Name is the upper-case PyPTO name ("FP32").
func (d DataType) Name() string {
	if info, ok := dtypeTable[d]; ok {
		return info.name
	}
	return fmt.Sprintf("DataType(0x%02x)", uint8(d))
}

// String prints the PyPTO spelling, e.g. "pl.FP32".
func (d DataType) String() string { return "pl." + d.Name() }

// Bits is the element width in bits.
func (d DataType) Bits() int { return dtypeTable[d].bits }

// Bytes is Bits()/8; 0 for sub-byte types.
func (d DataType) Bytes() int { return d.Bits() / 8 }

// WholeBytes reports whether an element occupies a whole number of bytes.
func (d DataType) WholeBytes() bool { b := d.Bits(); return b >= 8 && b%8 == 0 }

// IsFloat reports whether d is a floating-point type.
func (d DataType) IsFloat() bool { return d&0xF0 == 0x30 || d&0xF0 == 0x40 }

// IsSignedInt reports whether d is a signed integer type (INDEX counts).
func (d DataType) IsSignedInt() bool { return d >= INT4 && d <= INDEX }

// IsUnsignedInt reports whether d is an unsigned integer type.
func (d DataType) IsUnsignedInt() bool { return d >= UINT4 && d <= UINT64 }

// IsInt reports whether d is any integer type.
func (d DataType) IsInt() bool { return d.IsSignedInt() || d.IsUnsignedInt() }

// DataTypeByName finds a type by its upper-case name.
func DataTypeByName(name string) (DataType, bool) {
	for d, info := range dtypeTable {
		if info.name == name {
			return d, true
		}
	}
	return 0, false
}

// PromoteScalar is the result dtype of scalar arithmetic on l and r, the
// rule the DSL and the Python reader share: a bare literal (an INDEX
// constant) takes the other side's type, floats win over ints, wider wins.
func PromoteScalar(l, r Expr) DataType {
	ld := l.Type().(*ScalarType).DType
	rd := r.Type().(*ScalarType).DType
	switch {
	case ld == rd:
		return ld
	case isIndexLiteral(r):
		return ld
	case isIndexLiteral(l):
		return rd
	case ld.IsFloat() != rd.IsFloat():
		if ld.IsFloat() {
			return ld
		}
		return rd
	case ld.Bits() >= rd.Bits():
		return ld
	}
	return rd
}

func isIndexLiteral(e Expr) bool {
	c, ok := e.(*ConstInt)
	return ok && c.DType == INDEX
}

// PromoteDTypes is the element type of a binary op on a and b, as
// upstream's PromoteDataTypes: a float over an integer, else the wider,
// else (same width) the signed integer, else a.
func PromoteDTypes(a, b DataType) DataType {
	switch {
	case a == b:
		return a
	case a.IsFloat() && !b.IsFloat():
		return a
	case b.IsFloat() && !a.IsFloat():
		return b
	case a.Bits() > b.Bits():
		return a
	case b.Bits() > a.Bits():
		return b
	case !a.IsFloat() && a.IsSignedInt():
		return a
	case !b.IsFloat() && b.IsSignedInt():
		return b
	}
	return a
}
