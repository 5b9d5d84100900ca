// Package testprogs holds programs the tests of several packages run: one
// definition each, so the printer, pass, simulator and front-end tests all
// exercise the same program.
//
// It is test support that sits above pl and pld (it builds its programs with
// them), so only tests and packages at or above pl may import it; the layering
// test in this package (layers_test.go) holds every package to that order.
package testprogs

import (
	"github.com/ptorepl/ptorepl/pl"
)

// Quickstart is PyPTO's two-rank allreduce quickstart as the DSL contract
// writes it (dsl.md), with SIZE = 256.
func Quickstart() *pl.Program { return QuickstartSized(256) }
