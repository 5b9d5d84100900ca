package main

import (
	"fmt"
	"strings"

	"github.com/ptorepl/ptorepl/interp"
)

// metaCommands is the table of REPL commands; :help prints it.
func metaCommands() map[string]metaCommand {
	cmds := map[string]metaCommand{
		"print": {args: "[expr]", help: "print a value (default: the last program) in PyPTO syntax", run: (*repl).cmdPrint},
		"reset": {help: "forget every definition", run: func(r *repl, _ string) error {
			r.stepper, r.viewer = nil, nil
			return r.s.Reset()
		}},
	}
	for k, v := range pythonCommands() {
		cmds[k] = v
	}
	for k, v := range passCommands() {
		cmds[k] = v
	}
	cmds["help"] = metaCommand{help: "this list", run: func(r *repl, _ string) error {
		fmt.Fprint(r.out, helpText(r.meta))
		return nil
	}}
	return cmds
}

func (r *repl) cmdPrint(arg string) error {
	if arg == "" {
		p := r.s.LastProgram()
		if p == nil {
			return errNoProgram
		}
		fmt.Fprintln(r.out, interp.FormatText(p))
		return nil
	}
	v, err := r.s.Value(arg)
	if err != nil {
		return err
	}
	fmt.Fprintln(r.out, strings.TrimRight(interp.FormatText(v), "\n"))
	return nil
}
