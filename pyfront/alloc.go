//go:build cgo

package pyfront

/*
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));

// The parser allocates and frees hundreds of thousands of small objects
// per file, and everything it allocates during one parse is freed when
// the tree and parser are deleted right after. So while pyfront parses,
// the thread's allocations come from an arena: a bump pointer in blocks
// that are kept for the next parse (no malloc, no page faults), and free
// is a no-op. Outside a parse (another user of the library) it is libc.
// Every block starts with a header saying which kind it is.

typedef struct pf_hdr { size_t size; size_t arena; } pf_hdr;

typedef struct pf_block { struct pf_block *next; size_t cap, used; } pf_block;

typedef struct pf_arena { pf_block *head, *cur; } pf_arena;

static _Thread_local pf_arena *pf_cur;

enum { PF_BLOCK = 4 << 20, PF_KEEP = 16 << 20 };

static void *pf_arena_alloc(pf_arena *a, size_t n) {
	n = (n + sizeof(pf_hdr) + 15) & ~(size_t)15;
	pf_block *b = a->cur;
	while (b && b->used + n > b->cap) {
		b = b->next;
		a->cur = b;
	}
	if (!b) {
		size_t cap = n > PF_BLOCK ? n : PF_BLOCK;
		b = malloc(sizeof(pf_block) + 16 + cap);
		if (!b) return NULL;
		b->cap = cap;
		b->used = 0;
		b->next = NULL;
		// append, so blocks keep their order for the next reuse
		pf_block **p = &a->head;
		while (*p) p = &(*p)->next;
		*p = b;
		a->cur = b;
	}
	char *base = (char *)(b + 1);
	base += (16 - ((uintptr_t)base & 15)) & 15;
	pf_hdr *h = (pf_hdr *)(base + b->used);
	b->used += n;
	h->size = n - sizeof(pf_hdr);
	h->arena = 1;
	return h + 1;
}

static void *pf_malloc(size_t n) {
	if (pf_cur) return pf_arena_alloc(pf_cur, n);
	pf_hdr *h = malloc(sizeof(pf_hdr) + n);
	if (!h) return NULL;
	h->size = n;
	h->arena = 0;
	return h + 1;
}

static void *pf_calloc(size_t k, size_t n) {
	void *p = pf_malloc(k * n);
	if (p) memset(p, 0, k * n);
	return p;
}

static void pf_free(void *p) {
	if (!p) return;
	pf_hdr *h = (pf_hdr *)p - 1;
	if (!h->arena) free(h);
}

static void *pf_realloc(void *p, size_t n) {
	if (!p) return pf_malloc(n);
	pf_hdr *h = (pf_hdr *)p - 1;
	if (!h->arena && !pf_cur) {
		pf_hdr *g = realloc(h, sizeof(pf_hdr) + n);
		if (!g) return NULL;
		g->size = n;
		return g + 1;
	}
	if (h->arena && h->size >= n) return p;
	void *q = pf_malloc(n);
	if (!q) return NULL;
	memcpy(q, p, h->size < n ? h->size : n);
	pf_free(p);
	return q;
}

// pf_arena_begin makes this thread allocate from a.
void pf_arena_begin(pf_arena *a) { pf_cur = a; }

// pf_arena_leave makes this thread allocate from libc again.
void pf_arena_leave(void) { pf_cur = NULL; }

pf_arena *pf_arena_new(void) { return calloc(1, sizeof(pf_arena)); }

// pf_arena_reset empties a for reuse (everything in it is dead), dropping
// blocks beyond what a large file needs.
void pf_arena_reset(pf_arena *a) {
	size_t kept = 0;
	pf_block **p = &a->head;
	while (*p) {
		pf_block *b = *p;
		if (kept + b->cap > PF_KEEP) {
			*p = b->next;
			free(b);
			continue;
		}
		kept += b->cap;
		b->used = 0;
		p = &b->next;
	}
	a->cur = a->head;
}

// pf_arena_free frees a and all its blocks.
void pf_arena_free(pf_arena *a) {
	for (pf_block *b = a->head; b;) {
		pf_block *n = b->next;
		free(b);
		b = n;
	}
	free(a);
}

// pf_arena_size is the bytes of a's blocks.
size_t pf_arena_size(pf_arena *a) {
	size_t n = 0;
	for (pf_block *b = a->head; b; b = b->next) n += b->cap;
	return n;
}

static void pyfront_use_arena_allocator(void) { ts_set_allocator(pf_malloc, pf_calloc, pf_realloc, pf_free); }
*/
import "C"

// The Go binding's default allocator calls back into Go for every
// allocation; the parser's own allocator is installed once, here.
func init() { C.pyfront_use_arena_allocator() }

// arenas holds the emptied arenas of finished parses for the next ones
// (at most 4, each keeping at most PF_KEEP: 64 MB in all); each parse
// uses one alone.
var arenas = make(chan *C.pf_arena, 4)

func getArena() *C.pf_arena {
	select {
	case a := <-arenas:
		return a
	default:
		return C.pf_arena_new()
	}
}

func putArena(a *C.pf_arena) {
	select {
	case arenas <- a:
	default:
		C.pf_arena_free(a)
	}
}

// arenaBytes is the memory the pooled arenas hold (tests watch it).
func arenaBytes() int {
	total := 0
	var keep []*C.pf_arena
	for {
		select {
		case a := <-arenas:
			total += int(C.pf_arena_size(a))
			keep = append(keep, a)
			continue
		default:
		}
		break
	}
	for _, a := range keep {
		putArena(a)
	}
	return total
}
