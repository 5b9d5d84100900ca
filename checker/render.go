package checker

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/ir"
	"github.com/ptorepl/ptorepl/runtime"
)

// opAt names an op with its position and function: "tile.store at
// f.go:12 in kernel".
func opAt(o runtime.Origin) string {
	var b strings.Builder
	if o.Call != nil {
		b.WriteString(o.Call.Name())
		b.WriteString(atPos(o))
	} else {
		b.WriteString("a host copy")
	}
	if o.Func != "" {
		b.WriteString(" in ")
		b.WriteString(o.Func)
	}
	return b.String()
}

func atPos(o runtime.Origin) string {
	if o.Call != nil && o.Call.Pos.Known() {
		return " at " + o.Call.Pos.String()
	}
	return ""
}

// opOf is the op an access came from (nil for a function call or none).
func opOf(o runtime.Origin) *ir.OpDef {
	if o.Call == nil {
		return nil
	}
	return o.Call.Op
}

// readVerbs and writeVerbs word a plain read or write by the op that made
// it: the report's verb, its participle and the op's short name.
var (
	readVerbs = map[*ir.OpDef][3]string{
		ir.PldTileRemoteLoad: {"remote-loads", "reading", "remote_load"},
		ir.TileLoad:          {"loads", "reading", "load"},
		ir.PldTensorGet:      {"gets", "reading", "get"},
		ir.PldTileGet:        {"gets", "reading", "get"},
	}
	writeVerbs = map[*ir.OpDef][3]string{
		ir.TileStore:            {"stores to", "storing to", "store"},
		ir.PldTileRemoteStore:   {"remote-stores to", "storing to", "remote_store"},
		ir.PldTensorRemoteStore: {"remote-stores to", "storing to", "remote_store"},
		ir.PldTensorPut:         {"puts into", "writing", "put"},
		ir.PldTilePut:           {"puts into", "writing", "put"},
	}
)

// viewArg is the argument of a call that names the window an access of
// the given kind touches (nil: unknown): the first tensor argument the op's
// registry effects say it reads (for a read) or writes (otherwise), signal
// cells aside.
func viewArg(c *ir.Call, k runtime.AccessKind) ir.Expr {
	if c.Op == nil {
		return nil
	}
	for i, eff := range ir.CallEffects(c) {
		if c.Op.ArgSpecAt(i).Signal || i >= len(c.Args) {
			continue
		}
		if _, ok := ir.AsTensorLike(c.Args[i].Type()); !ok {
			continue
		}
		if (k == runtime.Read && eff.Reads()) || (k != runtime.Read && eff.Writes()) {
			return c.Args[i]
		}
	}
	return nil
}

// viewName is the program's name for the window an access touched (the
// variable the op was given), or the buffer's name.
func viewName(a *access) string {
	if a.cell != "" {
		return a.buffer
	}
	if c := a.origin.Call; c != nil {
		if v, ok := viewArg(c, a.kind).(*ir.Var); ok && v.Name != "" {
			return v.Name
		}
	}
	return a.buffer
}

// region renders the byte ranges an access overlapped as element indices
// of its view (data[0, 0:64]) when they form one box, else as bytes of the
// buffer.
func region(a *access, rs []runtime.ByteRange) string {
	if a.cell != "" {
		return a.cell
	}
	name := viewName(a)
	if s, ok := boxOf(a.origin.View, rs); ok {
		return name + s
	}
	return byteText(a.buffer, rs)
}

func byteText(buf string, rs []runtime.ByteRange) string {
	if len(rs) == 0 {
		return buf
	}
	s := fmt.Sprintf("%s bytes [%d, %d)", buf, rs[0].Lo, rs[0].Hi)
	if len(rs) > 1 {
		lo, hi := rs[0].Lo, rs[0].Hi
		for _, r := range rs {
			lo, hi = min(lo, r.Lo), max(hi, r.Hi)
		}
		s = fmt.Sprintf("%s bytes [%d, %d) in %d pieces", buf, lo, hi, len(rs))
	}
	return s
}

// boxOf maps byte ranges to the index box they cover in l's index space
// (from the window view's strides). ok is false when they are not exactly
// one box.
func boxOf(l *runtime.ViewLayout, rs []runtime.ByteRange) (string, bool) {
	if l == nil || l.ElemBytes <= 0 || len(l.Strides) == 0 || len(rs) == 0 {
		return "", false
	}
	n := len(l.Strides)
	ext := make([]int, n) // extents of dims 1..n-1 (dim 0 is unbounded)
	for i := 1; i < n; i++ {
		if l.Strides[i] <= 0 || l.Strides[i-1]%l.Strides[i] != 0 {
			return "", false
		}
		ext[i] = l.Strides[i-1] / l.Strides[i]
	}
	if l.Strides[n-1] != 1 {
		return "", false
	}
	dec := func(e int) []int {
		idx := make([]int, n)
		for i := 0; i < n; i++ {
			idx[i] = e / l.Strides[i]
			e %= l.Strides[i]
		}
		return idx
	}
	var blo, bhi []int
	total := 0
	for _, r := range rs {
		if r.Lo%l.ElemBytes != 0 || r.Hi%l.ElemBytes != 0 {
			return "", false
		}
		a, b := dec(r.Lo/l.ElemBytes), dec(r.Hi/l.ElemBytes-1)
		d := 0
		for d < n && a[d] == b[d] {
			d++
		}
		for k := d + 1; k < n; k++ { // dims inside the first differing one must be whole
			if a[k] != 0 || b[k] != ext[k]-1 {
				return "", false
			}
		}
		total += (r.Hi - r.Lo) / l.ElemBytes
		if blo == nil {
			blo, bhi = a, b
			continue
		}
		for k := 0; k < n; k++ {
			blo[k], bhi[k] = min(blo[k], a[k]), max(bhi[k], b[k])
		}
	}
	vol := 1
	for k := 0; k < n; k++ {
		vol *= bhi[k] - blo[k] + 1
	}
	if vol != total {
		return "", false
	}
	parts := make([]string, n)
	for k := 0; k < n; k++ {
		if blo[k] == bhi[k] {
			parts[k] = fmt.Sprint(blo[k])
		} else {
			parts[k] = fmt.Sprintf("%d:%d", blo[k], bhi[k]+1)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]", true
}

// verbs for an access: present tense, gerund, noun.
func verbs(a *access) (string, string, string) {
	op := opOf(a.origin)
	switch {
	case a.cell != "":
		return "notifies", "notifying", "notify"
	case a.kind == runtime.Read:
		if v, ok := readVerbs[op]; ok {
			return v[0], v[1], v[2]
		}
		return "reads", "reading", "read"
	case a.kind == runtime.Atomic:
		return "atomically adds to", "adding to", "atomic add"
	}
	if v, ok := writeVerbs[op]; ok {
		return v[0], v[1], v[2]
	}
	return "writes", "writing", "write"
}

// loc is the region as seen by the rank that acts on it: "its data[0, 0:64]"
// or "rank 2's data[0, 0:64]".
func loc(actor, target int, reg string) string {
	if actor == target {
		return "its " + reg
	}
	return fmt.Sprintf("rank %d's %s", target, reg)
}

// raceFinding explains one aggregated race.
func raceFinding(agg *raceAgg) Finding {
	f, s := agg.first, agg.second
	reg := region(s, agg.ranges)
	if s.origin.View == nil && f.origin.View != nil {
		reg = region(f, agg.ranges)
	}
	fv, _, fnoun := verbs(f)
	sv, _, snoun := verbs(s)
	var msg string
	switch {
	case f.kind == runtime.Read:
		msg = fmt.Sprintf("rank %d %s %s while rank %d may still be reading it (%s): add a barrier between the reads and the %s — "+
			"the readers notify when they are done and rank %d waits for them before writing.",
			s.rank, sv, loc(s.rank, s.target, reg), f.rank, fnoun, snoun, s.rank)
	case s.kind == runtime.Read:
		msg = fmt.Sprintf("rank %d %s %s, which rank %d %s with nothing ordering the two, so it may see old data: "+
			"rank %d must notify after the %s and rank %d wait for that notify before reading (stage → barrier → read).",
			s.rank, sv, loc(s.rank, s.target, reg), f.rank, pastOf(fv), f.rank, fnoun, s.rank)
	default:
		msg = fmt.Sprintf("ranks %d (%s) and %d (%s) both write %s with nothing ordering them, so what is left depends on timing: "+
			"order them with a notify/wait, write disjoint regions, or use atomic adds for both.",
			f.rank, fnoun, s.rank, snoun, loc(-1, s.target, reg))
	}
	det := []string{
		side(f, agg.ranges),
		side(s, agg.ranges),
	}
	if len(agg.pairOrder) > 1 {
		var others []string
		for _, p := range agg.pairOrder[1:] {
			others = append(others, fmt.Sprintf("%d/%d on rank %d's copy", p[0], p[1], p[2]))
		}
		det = append(det, fmt.Sprintf("the same two ops also race for other ranks (%s rank/%s rank): %s", fnoun, snoun, strings.Join(limit(others, 8), ", ")))
	}
	key := fmt.Sprintf("race|%p|%p|%d|%d|%s|%s|%s", f.origin.Call, s.origin.Call, f.kind, s.kind, s.buffer, f.cell, s.cell)
	return Finding{Kind: KindRace, Severity: Error, Message: msg, Details: det, Count: len(agg.pairOrder), key: key}
}

func pastOf(v string) string {
	switch v {
	case "stores to":
		return "stored to"
	case "remote-stores to":
		return "remote-stored to"
	case "puts into":
		return "put into"
	case "atomically adds to":
		return "atomically added to"
	case "notifies":
		return "notified"
	case "writes":
		return "wrote"
	}
	return v
}

// side describes one access of a race.
func side(a *access, rs []runtime.ByteRange) string {
	v, _, _ := verbs(a)
	s := fmt.Sprintf("rank %d: %s — %s %s", a.rank, opAt(a.origin), v, loc(a.rank, a.target, region(a, rs)))
	if a.cell == "" {
		s += fmt.Sprintf(" (window %s, %s)", a.buffer, strings.TrimPrefix(byteText("", rs), " "))
	}
	return s
}
