//go:build cgo

package pyfront

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// The few declarations of the tree-sitter C API this file uses; the
// library itself is compiled and linked by its Go binding.
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct { uint32_t row, column; } TSPoint;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { TSPoint start_point, end_point; uint32_t start_byte, end_byte; } TSRange;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *);
bool ts_parser_set_language(TSParser *, const TSLanguage *);
bool ts_parser_set_included_ranges(TSParser *, const TSRange *, uint32_t);
TSTree *ts_parser_parse_string(TSParser *, const TSTree *, const char *, uint32_t);
void ts_tree_delete(TSTree *);
TSNode ts_tree_root_node(const TSTree *);
uint32_t ts_node_descendant_count(TSNode);
TSSymbol ts_node_symbol(TSNode);
uint32_t ts_node_start_byte(TSNode);
uint32_t ts_node_end_byte(TSNode);
TSPoint ts_node_start_point(TSNode);
bool ts_node_is_named(TSNode);
bool ts_node_is_missing(TSNode);
bool ts_node_is_error(TSNode);
bool ts_node_has_error(TSNode);
TSTreeCursor ts_tree_cursor_new(TSNode);
void ts_tree_cursor_delete(TSTreeCursor *);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
bool ts_tree_cursor_goto_parent(TSTreeCursor *);

// pf_node is one syntax node, flattened in preorder: its children follow
// it, and next is the index just past its subtree.
typedef struct {
	uint32_t start, end, row, col, next, nchild, nnamed;
	uint16_t symbol, field;
	uint8_t flags;
} pf_node;

enum { PF_NAMED = 1, PF_MISSING = 2, PF_ERROR = 4, PF_HAS_ERROR = 8 };

// pf_flatten walks the whole tree with one cursor into out: cap records
// stride bytes apart, each starting with a pf_node. It returns how many
// nodes the tree has (more than cap: call again with room).
#define AT(i) ((pf_node *)((char *)out + (size_t)(i) * stride))
static uint32_t pf_flatten(TSTree *t, void *out, size_t stride, uint32_t cap) {
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
	uint32_t n = 0, depth = 0;
	// stack holds the index of each open ancestor.
	uint32_t stackbuf[256];
	uint32_t *stack = stackbuf, stackcap = 256;
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&c);
		if (n < cap) {
			pf_node *o = AT(n);
			TSPoint p = ts_node_start_point(node);
			o->start = ts_node_start_byte(node);
			o->end = ts_node_end_byte(node);
			o->row = p.row;
			o->col = p.column;
			o->symbol = ts_node_symbol(node);
			o->field = ts_tree_cursor_current_field_id(&c);
			o->nchild = 0;
			o->nnamed = 0;
			o->flags = (ts_node_is_named(node) ? PF_NAMED : 0) | (ts_node_is_missing(node) ? PF_MISSING : 0) |
				(ts_node_is_error(node) ? PF_ERROR : 0) | (ts_node_has_error(node) ? PF_HAS_ERROR : 0);
			if (depth > 0 && stack[depth - 1] < cap) {
				AT(stack[depth - 1])->nchild++;
				if (o->flags & PF_NAMED) AT(stack[depth - 1])->nnamed++;
			}
		}
		if (ts_tree_cursor_goto_first_child(&c)) {
			if (depth == stackcap) {
				uint32_t *s = malloc(2 * stackcap * sizeof *s);
				for (uint32_t i = 0; i < depth; i++) s[i] = stack[i];
				if (stack != stackbuf) free(stack);
				stack = s;
				stackcap *= 2;
			}
			stack[depth++] = n++;
			continue;
		}
		if (n < cap) AT(n)->next = n + 1;
		n++;
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) goto done;
			uint32_t open = stack[--depth];
			if (open < cap) AT(open)->next = n;
		}
	}
done:
	while (depth > 0) {
		uint32_t open = stack[--depth];
		if (open < cap) AT(open)->next = n;
	}
	if (stack != stackbuf) free(stack);
	ts_tree_cursor_delete(&c);
	return n;
}

typedef struct pf_arena pf_arena;
pf_arena *pf_arena_begin(pf_arena *);
void pf_arena_leave(void);
void pf_arena_reset(pf_arena *);

// pf_parse parses src on arena a and returns the tree (NULL: none) and
// its node count. The thread leaves the arena before returning, so
// nothing else this thread runs allocates from it.
// With nranges > 0 only those ranges of src are parsed, as if they were
// one text, at their own positions.
static TSTree *pf_parse(const void *lang, pf_arena *a, const char *src, uint32_t len, const TSRange *ranges, uint32_t nranges, uint32_t *count) {
	pf_arena_begin(a);
	TSParser *p = ts_parser_new();
	TSTree *t = NULL;
	if (ts_parser_set_language(p, (const TSLanguage *)lang) && (nranges == 0 || ts_parser_set_included_ranges(p, ranges, nranges)))
		t = ts_parser_parse_string(p, NULL, src, len);
	// Not ts_parser_delete: it would walk the parser's stacks and pools to
	// free arena memory one piece at a time; resetting the arena frees it.
	*count = t ? ts_node_descendant_count(ts_tree_root_node(t)) : 0;
	pf_arena_leave();
	return t;
}

// pf_finish flattens a tree pf_parse made, then empties its arena (which
// frees the tree and the parser).
static uint32_t pf_finish(TSTree *t, pf_arena *a, void *out, size_t stride, uint32_t cap) {
	uint32_t n = cap > 0 ? pf_flatten(t, out, stride, cap) : 0;
	// Not ts_tree_delete, for the same reason: the whole tree is arena
	// memory (made while the parse used the arena), freed by the reset.
	pf_arena_reset(a);
	return n;
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// node is one node of a parsed file's syntax tree. The tree is copied out
// of the C parser in one pass, so walking it (every Kind, child and field
// lookup the reader makes) is plain Go with no cgo call per node. Its
// first fields are C's pf_node, which the C walk writes in place. A node
// holds no Go pointer (the tree is one pointer-free slice the collector
// need not scan): it finds its tree from its own index.
type node struct {
	start, end, row, col uint32
	next, nchild, nnamed uint32
	symbol, field        uint16
	flags                uint8
	// Go's own: the node's index in the tree, and where the last
	// Child(i) and NamedChild(i) were found, so the reader's loops over
	// them take O(1) a step.
	self                   uint32
	lastAll, lastAllAt     uint32
	lastNamed, lastNamedAt uint32
}

// The C walk writes a pf_node at the start of each node: the layouts
// must agree.
func init() {
	var c C.pf_node
	var n node
	if unsafe.Offsetof(c.start) != unsafe.Offsetof(n.start) || unsafe.Offsetof(c.nnamed) != unsafe.Offsetof(n.nnamed) ||
		unsafe.Offsetof(c.symbol) != unsafe.Offsetof(n.symbol) || unsafe.Offsetof(c.field) != unsafe.Offsetof(n.field) ||
		unsafe.Offsetof(c.flags) != unsafe.Offsetof(n.flags) || unsafe.Sizeof(c) > unsafe.Offsetof(n.self) {
		panic("pyfront: node does not begin with the layout of pf_node")
	}
}

// point is a start position: row and byte column, both from 0.
type point struct{ Row, Column uint32 }

// parseNodes parses src with tree-sitter-python and returns its root.
func parseNodes(src []byte) (*node, error) {
	nodes, err := parseSplit(src)
	if err != nil {
		return nil, err
	}
	for i := range nodes {
		n := &nodes[i]
		n.self = uint32(i)
		n.lastAll, n.lastAllAt, n.lastNamed, n.lastNamedAt = 0, 0, 0, 0
	}
	return &nodes[0], nil
}

// srcRange is a byte range of the source that a parse reads.
type srcRange struct{ start, end int }

// parseFlat parses src (only the given ranges of it, when there are
// some) into nodes in preorder, without their tree links, in buf when it
// has room.
func parseFlat(src []byte, ranges []srcRange, buf []node) ([]node, error) {
	if len(src) >= 1<<32-1 {
		return nil, fmt.Errorf("the file is too large to read (%d bytes)", len(src))
	}
	var csrc *C.char
	if len(src) > 0 {
		csrc = (*C.char)(unsafe.Pointer(&src[0]))
	} else {
		csrc = (*C.char)(unsafe.Pointer(&[1]byte{}))
	}
	var cr *C.TSRange
	if len(ranges) > 0 {
		rs := make([]C.TSRange, len(ranges))
		for i, r := range ranges {
			rs[i].start_byte, rs[i].end_byte = C.uint32_t(r.start), C.uint32_t(r.end)
			rs[i].start_point.row, rs[i].start_point.column = pointAt(src, r.start)
			rs[i].end_point.row, rs[i].end_point.column = pointAt(src, r.end)
		}
		cr = &rs[0]
	}
	a := getArena()
	defer putArena(a)
	var count C.uint32_t
	t := C.pf_parse(python.Language(), a, csrc, C.uint32_t(len(src)), cr, C.uint32_t(len(ranges)), &count)
	if t == nil {
		return nil, fmt.Errorf("the Python parser gave no tree")
	}
	nodes := buf[:0]
	if cap(nodes) < int(count) {
		nodes = make([]node, int(count))
	}
	nodes = nodes[:int(count)]
	var n C.uint32_t
	if count > 0 {
		n = C.pf_finish(t, a, unsafe.Pointer(&nodes[0]), C.size_t(unsafe.Sizeof(node{})), count)
	} else {
		C.pf_finish(t, a, nil, 0, 0)
	}
	if n == 0 || n != count {
		return nil, fmt.Errorf("the Python parser's tree has %d nodes, not the %d it announced", n, count)
	}
	return nodes, nil
}

// pointAt is the row and byte column of offset at.
func pointAt(src []byte, at int) (C.uint32_t, C.uint32_t) {
	row, col := 0, 0
	for i := 0; i < at && i < len(src); i++ {
		if src[i] == '\n' {
			row, col = row+1, 0
		} else {
			col++
		}
	}
	return C.uint32_t(row), C.uint32_t(col)
}

func (n *node) index() uint32 { return n.self }

// all is the whole tree n belongs to: the root (index 0) spans it.
func (n *node) all() []node {
	base := (*node)(unsafe.Add(unsafe.Pointer(n), -int(n.self)*int(unsafe.Sizeof(node{}))))
	return unsafe.Slice(base, base.next)
}

// Kind is the grammar's name for the node ("call", "identifier", "(").
func (n *node) Kind() string {
	if int(n.symbol) < len(symbolNames) {
		return symbolNames[n.symbol]
	}
	return "ERROR"
}

func (n *node) StartByte() uint32 { return n.start }
func (n *node) EndByte() uint32   { return n.end }

// StartPosition is where the node starts (row and byte column from 0).
func (n *node) StartPosition() point { return point{n.row, n.col} }

func (n *node) IsNamed() bool   { return n.flags&C.PF_NAMED != 0 }
func (n *node) IsMissing() bool { return n.flags&C.PF_MISSING != 0 }
func (n *node) IsError() bool   { return n.flags&C.PF_ERROR != 0 }
func (n *node) HasError() bool  { return n.flags&C.PF_HAS_ERROR != 0 }

// ChildCount counts every child, named and anonymous.
func (n *node) ChildCount() uint { return uint(n.nchild) }

// Child is the i-th child, or nil.
func (n *node) Child(i uint) *node { return n.nth(i, false) }

// NamedChildCount counts the named children.
func (n *node) NamedChildCount() uint { return uint(n.nnamed) }

// NamedChild is the i-th named child, or nil.
func (n *node) NamedChild(i uint) *node { return n.nth(i, true) }

// nth is the i-th child (named children only when named is set),
// starting from where the last such lookup on n ended when it can.
func (n *node) nth(i uint, named bool) *node {
	count, last, lastAt := n.nchild, &n.lastAll, &n.lastAllAt
	if named {
		count, last, lastAt = n.nnamed, &n.lastNamed, &n.lastNamedAt
	}
	if i >= uint(count) {
		return nil
	}
	all := n.all()
	c, k := n.self+1, uint32(0)
	if *lastAt != 0 && uint(*last) <= i {
		c, k = *lastAt, *last
	}
	for ; c < n.next; c = all[c].next {
		if named && !all[c].IsNamed() {
			continue
		}
		if uint(k) == i {
			*last, *lastAt = k, c
			return &all[c]
		}
		k++
	}
	return nil
}

// ChildByFieldId is the first child under field f, or nil.
func (n *node) ChildByFieldId(f uint16) *node {
	all := n.all()
	c := n.self + 1
	for j := uint32(0); j < n.nchild; j++ {
		if all[c].field == f {
			return &all[c]
		}
		c = all[c].next
	}
	return nil
}

// ChildrenByField lists the children under field f.
func (n *node) ChildrenByField(f uint16) []*node {
	var out []*node
	all := n.all()
	c := n.self + 1
	for j := uint32(0); j < n.nchild; j++ {
		if all[c].field == f {
			out = append(out, &all[c])
		}
		c = all[c].next
	}
	return out
}
