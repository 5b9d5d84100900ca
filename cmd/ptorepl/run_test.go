package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRunProgramLikeGoRun: a package main file runs main once, sees its
// arguments as os.Args[1:], and os.Exit's code is the command's.
func TestRunProgramLikeGoRun(t *testing.T) {
	cases := []struct {
		args []string
		out  string
		code int
	}{
		{[]string{"run", "testdata/program.go"}, "args: \n", 0},
		{[]string{"run", "testdata/program.go", "x"}, "args: x\n", 0},
		{[]string{"run", "testdata/program.go", "x", "y"}, "args: x,y\n", 3},
		{[]string{"run", "testdata/program.go", "--", "a.go"}, "args: a.go\n", 0},
		{[]string{"run", "testdata/args_cells.go", "p", "q"}, "cells args: [p q]\n", 0},
	}
	for _, tc := range cases {
		var out, errOut bytes.Buffer
		code := run(tc.args, nil, &out, &errOut)
		require.Equal(t, tc.code, code, "%v: %s", tc.args, errOut.String())
		require.Equal(t, tc.out, out.String(), "%v", tc.args)
	}
}
