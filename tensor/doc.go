// Package tensor provides host tensors, a small counterpart of torch.Tensor: the values a
// cell passes to pl.Run and gets back from the simulated device.
//
// A Tensor has a dtype (ir.DataType), a shape and contiguous row-major storage holding the
// little-endian element bytes, which is also the device layout. The supported dtypes are
// BOOL (one byte, 0 or 1), INT8, INT16, INT32, INT64, INDEX (stored as int64), UINT8,
// FP16 (IEEE binary16), BF16 (the top 16 bits of a float32) and FP32.
//
//	x := tensor.Randn(1, 2, 1, 4)             // FP32, deterministic for the seed
//	y := tensor.Zeros(pl.FP32, 2, 1, 4)
//	z := tensor.FromFloat32([]float32{1, 2, 3, 4}, 2, 2)
//	fmt.Println(z)                            // tensor([[1., 2.],
//	                                          //         [3., 4.]])
//	ok := z.AllClose(z.Clone(), 1e-5, 1e-8)
//
// # Storage and views
//
// Slice(i) (torch's x[i]) and Reshape return views sharing storage with their source.
// Bytes returns the storage itself, so a device simulator can copy results into a tensor
// in place; FromBytes copies raw bytes into a new tensor. ViewFloat32, ViewInt32,
// ViewUint16 (FP16/BF16 bit patterns) and the other View methods alias the storage as
// typed slices; Float32s, Float64s, Int32s and Int64s return converted copies.
//
// # Conversions
//
// Conversions to floating dtypes round to nearest even, and are correctly rounded from
// float64 and int64 (no double rounding through float32): in FP16, 1+2^-11 becomes 1 and
// 2049 becomes 2048. Conversions to integer dtypes truncate toward zero (saturating at the
// int64 range, NaN giving 0) and then wrap modulo 2^bits, as Arange(INT8, 200) does in
// torch. Conversion to BOOL is x != 0. (torch converts float64 to float16 through
// float32, so for rare inputs just off a tie it can differ from this package in the last
// bit.)
//
// Randn draws from Go's math/rand, not torch's generator: it is deterministic for a seed
// but does not reproduce torch.randn's numbers.
//
// # Errors
//
// Bad input panics with a *Error whose message names the function, what it expected and
// what it was given ("tensor.FromFloat32: expected 6 values for shape [2, 3], given 5").
// The cases are those where torch raises: an unsupported dtype, a negative dimension, a
// data length or byte count that does not match the shape, a reshape to a different
// number of elements, an index out of range or of the wrong arity, a scalar outside its
// dtype's range before rounding in Full or Set (200 or 127.5 into INT8, 65519 into FP16,
// NaN into an integer dtype), Arange of BOOL, and a negative tolerance in AllClose.
// Equal and AllClose do not panic on a dtype or shape mismatch; they report false
// (AllClose compares values across dtypes, in float64 where torch uses the promoted
// dtype).
//
// # Printing
//
// String follows torch's repr with the default print options (precision 4, threshold
// 1000, edgeitems 3, linewidth 80):
//
//   - The text is "tensor(" + body + suffixes + ")". Rows of a 2-D tensor are separated by
//     ",\n" plus one more space of indentation per nesting level; a tensor of n dimensions
//     separates its outer slices with n-1 newlines.
//   - All elements share one width and are right-aligned to it. A 1-D run wraps after
//     floor((80 - indent) / (width + 2)) elements per line, continuation lines indented
//     one past the opening bracket.
//   - Floating tensors are looked at through their non-zero finite values. If all are
//     integers, elements print as "3." (nan and inf without the dot); otherwise with 4
//     decimals ("1.5000"). Scientific notation ("1.0000e+08") is used instead when
//     max|x|/min|x| > 1000 or max|x| > 1e8, or, for non-integers, min|x| < 1e-4. The width
//     is that of the widest non-zero finite value (plus the dot in integer mode), at least
//     1. NaN and infinities print as nan, inf, -inf.
//   - Integer tensors print their decimal values, BOOL tensors True and False.
//   - A dtype other than float32, int64 (INT64, INDEX) and bool is named as a suffix,
//     ", dtype=torch.float16", which moves to its own line, indented by 7, when the last
//     line plus the suffix would pass the line width.
//   - Tensors of more than 1000 elements are summarized: along every dimension longer than
//     6 only the first and last 3 entries print, separated by "..." (in a row, an element
//     " ..." after ", "; between slices, a line "..."). Widths and modes are then decided
//     by the printed elements only.
//   - A 0-d tensor prints its value alone: "tensor(1.5000)". An empty tensor prints
//     "tensor([])", with ", size=(2, 0)" unless it is 1-D and ", dtype=..." for any dtype
//     other than float32 (int64 included, as torch does).
//
// The String goldens in testdata/string were produced by torch's repr of the same
// tensors.
//
// HTML renders the same values as a table for notebooks; see Tensor.HTML.
//
// The API avoids generics, method expressions and variadic interface parameters so that
// the interpreter running cells can call all of it.
package tensor
