package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/ptorepl/ptorepl/kernel"
)

// kernelMain runs `ptorepl kernel CONNECTION_FILE` and
// `ptorepl kernel install [--user] [--prefix DIR] [--name NAME]`.
func kernelMain(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "install" {
		fs := flag.NewFlagSet("kernel install", flag.ContinueOnError)
		fs.SetOutput(stderr)
		user := fs.Bool("user", false, "install for the current user (JUPYTER_DATA_DIR if set)")
		prefix := fs.String("prefix", "", "install under PREFIX/share/jupyter/kernels")
		name := fs.String("name", "ptorepl", "kernelspec name")
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		bin, err := os.Executable()
		if err != nil {
			fmt.Fprintf(stderr, "ptorepl: %v\n", err)
			return 1
		}
		dir, err := kernel.Install(kernel.InstallOptions{Name: *name, User: *user, Prefix: *prefix, Binary: bin})
		if err != nil {
			fmt.Fprintf(stderr, "ptorepl: kernel install: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "installed kernelspec %s in %s\n", *name, dir)
		return 0
	}
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: ptorepl kernel CONNECTION_FILE | ptorepl kernel install [--user] [--prefix DIR] [--name NAME]")
		return 2
	}
	ci, err := kernel.ReadConnectionFile(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	// Interrupts come as messages (interrupt_mode "message"); a stray SIGINT
	// from a terminal must not kill the kernel.
	signal.Ignore(os.Interrupt)
	k, err := kernel.New(ci, kernel.Info{Implementation: "ptorepl", Version: version,
		Banner: "ptorepl " + version + " — Go cells build, compile and run PyPTO distributed kernels"}, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
	}
	if _, err := k.Run(context.Background()); err != nil {
		fmt.Fprintf(stderr, "ptorepl: kernel: %v\n", err)
		return 1
	}
	return 0
}
