package pld_test

import (
	"fmt"
	"testing"

	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/stretchr/testify/require"
)

// Options print as they were written, not as Go structs.
func TestOptionsReadAsWritten(t *testing.T) {
	for _, c := range []struct {
		opt  pld.Option
		want string
	}{
		{pld.Atomic(pld.Add), "pld.Atomic(pl.AtomicType.Add)"},
		{pld.Chunk(4, 0), "pld.Chunk(4, 0)"},
		{pld.Pipeline(), "pld.Pipeline()"},
		{pld.Op(pld.Max), "pld.Op(pld.Max)"},
		{pld.Mode("ring"), `pld.Mode("ring")`},
		{pld.CoreNum(2), "pld.CoreNum(2)"},
		{pld.Region(pl.Dims(0, 0), pl.Dims(1, 0), pl.Dims(1, 8)), "pld.Region([0, 0], [1, 0], [1, 8])"},
	} {
		require.Equal(t, c.want, fmt.Sprint(c.opt))
	}
}
