package pyfront

import "github.com/ptorepl/ptorepl/ir"

// withStmt reads `with pl.at(level=..., role=..., name_hint=...):` as a
// ScopeStmt: level CORE_GROUP is an InCore scope, any other level a
// Hierarchy scope, as upstream's parser builds them. The body's names stay
// bound after it, as Python's do.
func (fc *fnCtx) withStmt(n *node) []ir.Stmt {
	r := fc.r
	var clause *node
	for _, c := range r.kids(n) {
		if c.Kind() == "with_clause" {
			clause = c
		}
	}
	if clause == nil {
		r.fail(n, "unsupported with statement")
	}
	items := r.kids(clause)
	if len(items) != 1 {
		r.fail(clause, "a with statement takes one pl.at(...) scope, given %d items", len(items))
	}
	item := r.kids(items[0])
	if len(item) != 1 {
		r.fail(items[0], "unsupported with item %s", r.text(items[0]))
	}
	call := item[0]
	if call.Kind() == "as_pattern" {
		r.fail(call, "with pl.at(...) as <task id>: task ids (and deps=) are not supported yet; drop the 'as' clause")
	}
	callee := ""
	if call.Kind() == "call" {
		callee = r.dotted(call.ChildByFieldId(fldFunction))
	}
	if callee != "pl.at" {
		r.fail(call, "unsupported with scope %s: ptorepl reads with pl.at(level=..., role=..., name_hint=...) scopes", r.text(call))
	}
	pos, nodes, kws := r.args(call, fc.env, fc)
	s := &ir.ScopeStmt{StmtBase: ir.StmtBase{Pos: r.pos(n)}, Level: ir.LevelNone, Role: ir.RoleNone}
	setLevel := func(at *node, v value) {
		l, ok := v.(ir.Level)
		if !ok {
			r.fail(at, "pl.at: level must be a pl.Level, given %s", describe(v))
		}
		s.Level = l
	}
	setRole := func(at *node, v value) {
		if v == nil {
			return // role=None
		}
		ro, ok := v.(ir.Role)
		if !ok {
			r.fail(at, "pl.at: role must be a pl.Role, given %s", describe(v))
		}
		s.Role = ro
	}
	if len(pos) > 2 {
		r.fail(nodes[2], "pl.at takes at most two positional arguments (level, role), given %d", len(pos))
	}
	if len(pos) > 0 {
		setLevel(nodes[0], pos[0])
	}
	if len(pos) > 1 {
		setRole(nodes[1], pos[1])
	}
	for _, k := range kws {
		switch k.name {
		case "level":
			setLevel(k.node, k.val)
		case "role":
			setRole(k.node, k.val)
		case "name_hint":
			h, ok := k.val.(string)
			if !ok || !isIdentifier(h) {
				r.fail(k.node, "pl.at: name_hint must be a valid identifier, given %s", describe(k.val))
			}
			s.NameHint = h
		case "optimizations":
			list, ok := k.val.(pyList)
			if !ok {
				r.fail(k.node, "pl.at: optimizations must be a list of pl.split(...) and pl.cross_core_slot(...), given %s", describe(k.val))
			}
			for _, e := range list {
				o, ok := e.(scopeOpt)
				if !ok {
					r.fail(k.node, "pl.at: optimizations holds pl.split(...) and pl.cross_core_slot(...), given %s", describe(e))
				}
				if o.hasSplit {
					s.Split = o.split
				}
				if o.slot != 0 {
					s.SlotNum = o.slot
				}
			}
		case "deps", "no_dep_args", "dumps", "allow_early_resolve", "windowize":
			r.fail(k.node, "pl.at: %s= is not supported yet", k.name)
		default:
			r.fail(k.node, "pl.at: unknown keyword %s (expected level, role or name_hint)", k.name)
		}
	}
	if s.Level == ir.LevelNone {
		r.fail(call, "pl.at needs a level: pl.at(level=pl.Level.CORE_GROUP)")
	}
	if s.Level == ir.LevelCoreGroup {
		if s.Role != ir.RoleNone {
			r.fail(call, "pl.at(level=pl.Level.CORE_GROUP) takes no role: a CORE_GROUP scope is an InCore kernel")
		}
		s.Kind = ir.ScopeInCore
	} else {
		s.Kind = ir.ScopeHierarchy
		if s.Split != ir.SplitNone || s.SlotNum != 0 {
			r.fail(call, "pl.at: optimizations= applies to an InCore scope (level=pl.Level.CORE_GROUP)")
		}
	}
	body := n.ChildByFieldId(fldBody)
	s.Body = &ir.SeqStmts{Stmts: fc.block(body, nil, r.commentsBefore(n, body), false)}
	return []ir.Stmt{s}
}

// isIdentifier reports whether s is a Python identifier (ASCII).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
