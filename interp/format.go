package interp

import (
	"context"

	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/internal/dsl"
)

func setEvalContext(ctx context.Context) func() { return dsl.SetContext(ctx) }

// FormatText is the text/plain display of a value: IR in PyPTO's printed
// syntax, tensors like torch, anything else as Go prints it.
func FormatText(v any) string { return display.PlainText(v) }

// Bundle is the MIME bundle of a value (text/plain and, where it has one, text/html).
func Bundle(v any) map[string]string { return display.Bundle(v) }
