package tensor

import (
	"bytes"
	"math"
	"math/rand"
	"strconv"
	"unsafe"

	"github.com/ptorepl/ptorepl/ir"
)

// Tensor is a host tensor: a dtype, a shape and contiguous row-major little-endian storage.
// Views made by Slice and Reshape share storage with the tensor they come from. The zero
// value is not usable; make tensors with the constructors.
type Tensor struct {
	dtype ir.DataType
	shape []int
	data  []byte // exactly numel*itemSize bytes, capacity capped at the length
}

// alloc returns n zeroed bytes whose start is 8-byte aligned, so typed views of any
// element width are aligned.
func alloc(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	words := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), n)[:n:n]
}

// maxNumel bounds the element count of a tensor, so that byte sizes never overflow.
const maxNumel = 1 << 48

// numelOf validates dims for fn and returns their product.
func numelOf(fn string, dims []int) int {
	n := 1
	for _, d := range dims {
		if d < 0 {
			fail(fn, "non-negative dimensions", dimsString(dims))
		}
		if d != 0 && n > maxNumel/d {
			fail(fn, "a shape of at most 2^48 elements", dimsString(dims))
		}
		n *= d
	}
	return n
}

// newTensor makes a zero-filled tensor after validating dt and dims.
func newTensor(fn string, dt ir.DataType, dims []int) *Tensor {
	checkDType(fn, dt)
	n := numelOf(fn, dims)
	return &Tensor{dtype: dt, shape: append([]int{}, dims...), data: alloc(n * itemSize(dt))}
}

// dataDims returns the shape for n data values: dims, or [n] when dims is empty.
func dataDims(fn string, n int, dims []int) []int {
	if len(dims) == 0 {
		return []int{n}
	}
	if want := numelOf(fn, dims); want != n {
		failf(fn, strconv.Itoa(want)+" values for shape "+dimsString(dims), "%d", n)
	}
	return dims
}

// Zeros returns a tensor of the given dtype and shape filled with zeros (torch.zeros). No
// dims gives a 0-d (scalar) tensor.
func Zeros(dt ir.DataType, dims ...int) *Tensor {
	return newTensor("tensor.Zeros", dt, dims)
}

// Ones returns a tensor filled with ones (torch.ones).
func Ones(dt ir.DataType, dims ...int) *Tensor {
	t := newTensor("tensor.Ones", dt, dims)
	t.fill(1)
	return t
}

// Full returns a tensor filled with value converted to dt (torch.full; integers truncate
// toward zero). It panics, as torch does, when value lies outside dt's range before
// rounding: 200 or 127.5 into INT8, -0.5 into UINT8, 65519 into FP16, NaN into any integer
// dtype; NaN and ±Inf are accepted by the floating dtypes, anything by BOOL.
func Full(dt ir.DataType, value float64, dims ...int) *Tensor {
	t := newTensor("tensor.Full", dt, dims)
	checkScalar("tensor.Full", dt, value)
	t.fill(value)
	return t
}

func (t *Tensor) fill(x float64) {
	n := t.Numel()
	if n == 0 {
		return
	}
	store(t.dtype, t.data, 0, x)
	es := itemSize(t.dtype)
	for filled := es; filled < len(t.data); filled *= 2 {
		copy(t.data[filled:], t.data[:filled])
	}
}

// Randn returns an FP32 tensor of standard-normal samples, deterministic for a seed: element
// k is float32 of the k-th NormFloat64 of math/rand.New(math/rand.NewSource(seed)).
func Randn(seed int64, dims ...int) *Tensor {
	t := newTensor("tensor.Randn", ir.FP32, dims)
	r := rand.New(rand.NewSource(seed))
	n := t.Numel()
	for i := 0; i < n; i++ {
		le.PutUint32(t.data[4*i:], math.Float32bits(float32(r.NormFloat64())))
	}
	return t
}

// FromFloat32 returns an FP32 tensor holding a copy of data. With no dims the tensor is 1-D
// of len(data); otherwise the product of dims must equal len(data).
func FromFloat32(data []float32, dims ...int) *Tensor {
	const fn = "tensor.FromFloat32"
	t := newTensor(fn, ir.FP32, dataDims(fn, len(data), dims))
	if littleEndian {
		copy(t.ViewFloat32(), data)
		return t
	}
	for i, v := range data {
		le.PutUint32(t.data[4*i:], math.Float32bits(v))
	}
	return t
}

// FromInt32 returns an INT32 tensor holding a copy of data; dims as for FromFloat32.
func FromInt32(data []int32, dims ...int) *Tensor {
	const fn = "tensor.FromInt32"
	t := newTensor(fn, ir.INT32, dataDims(fn, len(data), dims))
	if littleEndian {
		copy(t.ViewInt32(), data)
		return t
	}
	for i, v := range data {
		le.PutUint32(t.data[4*i:], uint32(v))
	}
	return t
}

// FromInt64 returns an INT64 tensor holding a copy of data; dims as for FromFloat32.
func FromInt64(data []int64, dims ...int) *Tensor {
	const fn = "tensor.FromInt64"
	t := newTensor(fn, ir.INT64, dataDims(fn, len(data), dims))
	for i, v := range data {
		le.PutUint64(t.data[8*i:], uint64(v))
	}
	return t
}

// FromFloat64 returns a tensor of dtype dt holding data converted like Tensor.To: FP32,
// FP16 and BF16 round to nearest even (correctly, with no double rounding), integers
// truncate toward zero and wrap, BOOL is x != 0. dims as for FromFloat32.
func FromFloat64(dt ir.DataType, data []float64, dims ...int) *Tensor {
	const fn = "tensor.FromFloat64"
	checkDType(fn, dt)
	t := newTensor(fn, dt, dataDims(fn, len(data), dims))
	for i, v := range data {
		store(dt, t.data, i, v)
	}
	return t
}

// FromBytes returns a tensor of dtype dt holding a copy of raw, the little-endian element
// bytes (the device layout; BOOL is one byte per element, any non-zero byte reads as
// true and is stored as 1). With no dims the tensor is 1-D; otherwise the product of dims
// times the element size must equal len(raw).
func FromBytes(dt ir.DataType, raw []byte, dims ...int) *Tensor {
	const fn = "tensor.FromBytes"
	checkDType(fn, dt)
	es := itemSize(dt)
	if len(dims) == 0 {
		if len(raw)%es != 0 {
			failf(fn, "a byte count divisible by the "+dt.String()+" element size "+strconv.Itoa(es), "%d bytes", len(raw))
		}
		dims = []int{len(raw) / es}
	} else if want := numelOf(fn, dims) * es; want != len(raw) {
		failf(fn, strconv.Itoa(want)+" bytes for "+dt.String()+" shape "+dimsString(dims), "%d bytes", len(raw))
	}
	t := newTensor(fn, dt, dims)
	copy(t.data, raw)
	if dt == ir.BOOL {
		for i, c := range t.data {
			if c != 0 {
				t.data[i] = 1
			}
		}
	}
	return t
}

// Arange returns the 1-D tensor [0, 1, ..., n-1] of dtype dt (torch.arange(n, dtype=dt)):
// values are converted like FromFloat64, so FP16 rounds above 2048 and INT8 wraps past
// 127. BOOL is rejected, as torch does.
func Arange(dt ir.DataType, n int) *Tensor {
	const fn = "tensor.Arange"
	checkDType(fn, dt)
	if dt == ir.BOOL {
		fail(fn, "a numeric dtype", dt.String())
	}
	if n < 0 {
		failf(fn, "n >= 0", "%d", n)
	}
	t := newTensor(fn, dt, []int{n})
	for i := 0; i < n; i++ {
		storeInt(dt, t.data, i, int64(i))
	}
	return t
}

// ---- metadata ----

// DType returns the element type.
func (t *Tensor) DType() ir.DataType { return t.dtype }

// Shape returns a copy of the dimensions ([] for a 0-d tensor).
func (t *Tensor) Shape() []int { return append([]int{}, t.shape...) }

// Dim returns the number of dimensions.
func (t *Tensor) Dim() int { return len(t.shape) }

// Numel returns the number of elements.
func (t *Tensor) Numel() int { return len(t.data) / itemSize(t.dtype) }

// ElementSize returns the size of one element in bytes (1 for BOOL).
func (t *Tensor) ElementSize() int { return itemSize(t.dtype) }

// NBytes returns the size of the storage in bytes, Numel()*ElementSize().
func (t *Tensor) NBytes() int { return len(t.data) }

// ---- element access ----

// offset returns the flat index of idx, accepting negative indices from the end as torch
// does.
func (t *Tensor) offset(fn string, idx []int) int {
	if len(idx) != len(t.shape) {
		failf(fn, strconv.Itoa(len(t.shape))+" indices for shape "+dimsString(t.shape), "%d indices %s", len(idx), dimsString(idx))
	}
	off := 0
	for k, i := range idx {
		n := t.shape[k]
		j := i
		if j < 0 {
			j += n
		}
		if j < 0 || j >= n {
			failf(fn, "index "+strconv.Itoa(k)+" in ["+strconv.Itoa(-n)+", "+strconv.Itoa(n)+") for shape "+dimsString(t.shape), "%d", i)
		}
		off = off*n + j
	}
	return off
}

// At returns the element at idx as float64 (one index per dimension; none for a 0-d
// tensor; negative indices count from the end). INT64 values beyond 2^53 are rounded.
func (t *Tensor) At(idx ...int) float64 {
	return load(t.dtype, t.data, t.offset("Tensor.At", idx))
}

// Set writes v at idx, converted to the dtype (like torch's t[idx] = v: it panics when v
// overflows the dtype, as Full does).
func (t *Tensor) Set(v float64, idx ...int) {
	const fn = "Tensor.Set"
	off := t.offset(fn, idx)
	checkScalar(fn, t.dtype, v)
	store(t.dtype, t.data, off, v)
}

// ---- views and copies ----

// Reshape returns a view with the given dims sharing storage with t; one dimension may be
// -1 and is then inferred (torch.reshape / view).
func (t *Tensor) Reshape(dims ...int) *Tensor {
	const fn = "Tensor.Reshape"
	n := t.Numel()
	out := append([]int{}, dims...)
	infer := -1
	for k, d := range out {
		if d == -1 && infer < 0 {
			infer = k
			out[k] = 1
		} else if d < 0 {
			fail(fn, "non-negative dimensions with at most one -1", dimsString(dims))
		}
	}
	known := numelOf(fn, out)
	if infer >= 0 {
		if known == 0 || n%known != 0 {
			failf(fn, "a shape compatible with "+strconv.Itoa(n)+" elements (shape "+dimsString(t.shape)+")", "%s", dimsString(dims))
		}
		out[infer] = n / known
	} else if known != n {
		failf(fn, "a shape with "+strconv.Itoa(n)+" elements (shape "+dimsString(t.shape)+")", "%s", dimsString(dims))
	}
	return &Tensor{dtype: t.dtype, shape: out, data: t.data}
}

// Slice returns element i along dimension 0 as a view sharing storage (torch's x[i]);
// negative i counts from the end. A 0-d tensor cannot be sliced.
func (t *Tensor) Slice(i int) *Tensor {
	const fn = "Tensor.Slice"
	if len(t.shape) == 0 {
		fail(fn, "a tensor with at least one dimension", "a 0-d tensor")
	}
	n := t.shape[0]
	j := i
	if j < 0 {
		j += n
	}
	if j < 0 || j >= n {
		failf(fn, "index in ["+strconv.Itoa(-n)+", "+strconv.Itoa(n)+") for shape "+dimsString(t.shape), "%d", i)
	}
	stride := len(t.data) / n
	return &Tensor{
		dtype: t.dtype,
		shape: append([]int{}, t.shape[1:]...),
		data:  t.data[j*stride : (j+1)*stride : (j+1)*stride],
	}
}

// Clone returns a deep copy with its own storage.
func (t *Tensor) Clone() *Tensor {
	u := &Tensor{dtype: t.dtype, shape: append([]int{}, t.shape...), data: alloc(len(t.data))}
	copy(u.data, t.data)
	return u
}

// To returns a copy converted to dtype dt (torch's Tensor.to; always a new tensor). Integers
// convert exactly between integer types (wrapping), floats round to nearest even, floats to
// integers truncate toward zero and wrap, anything to BOOL is x != 0.
func (t *Tensor) To(dt ir.DataType) *Tensor {
	const fn = "Tensor.To"
	checkDType(fn, dt)
	if dt == t.dtype {
		return t.Clone()
	}
	u := newTensor(fn, dt, t.shape)
	n := t.Numel()
	if t.dtype.IsFloat() {
		for i := 0; i < n; i++ {
			store(dt, u.data, i, load(t.dtype, t.data, i))
		}
	} else {
		for i := 0; i < n; i++ {
			storeInt(dt, u.data, i, loadInt(t.dtype, t.data, i))
		}
	}
	return u
}

// ---- comparisons ----

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Equal reports whether u has the same dtype, shape and values as t (torch.equal, but a
// dtype mismatch is false). Floats compare by value: NaN is never equal, -0 equals +0.
func (t *Tensor) Equal(u *Tensor) bool {
	if t == nil || u == nil {
		return t == u
	}
	if t.dtype != u.dtype || !sameShape(t.shape, u.shape) {
		return false
	}
	if !t.dtype.IsFloat() && t.dtype != ir.BOOL {
		return bytes.Equal(t.data, u.data)
	}
	n := t.Numel()
	for i := 0; i < n; i++ {
		if load(t.dtype, t.data, i) != load(u.dtype, u.data, i) {
			return false
		}
	}
	return true
}

// AllClose reports whether every element pair satisfies |t-u| <= atol + rtol*|u|
// (torch.allclose with equal_nan=False): equal values (infinities of the same sign
// included) are close, NaN is close to nothing. Values compare as float64 and may differ in
// dtype; different shapes are not close. A negative rtol or atol panics, as in torch.
func (t *Tensor) AllClose(u *Tensor, rtol, atol float64) bool {
	const fn = "Tensor.AllClose"
	if rtol < 0 || rtol != rtol {
		failf(fn, "rtol >= 0", "%v", rtol)
	}
	if atol < 0 || atol != atol {
		failf(fn, "atol >= 0", "%v", atol)
	}
	if t == nil || u == nil {
		return false
	}
	if !sameShape(t.shape, u.shape) {
		return false
	}
	n := t.Numel()
	for i := 0; i < n; i++ {
		if !isClose(load(t.dtype, t.data, i), load(u.dtype, u.data, i), rtol, atol) {
			return false
		}
	}
	return true
}

func isClose(a, b, rtol, atol float64) bool {
	if a == b {
		return true
	}
	diff := math.Abs(a - b)
	if math.IsInf(diff, 0) || diff != diff {
		return false
	}
	return diff <= atol+rtol*math.Abs(b)
}
