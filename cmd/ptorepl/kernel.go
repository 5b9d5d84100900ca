package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/ptorepl/ptorepl/kernel"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/runtime"
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
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "ptorepl kernel install: unexpected argument %q\n\n%s", fs.Arg(0), kernelInstallUsage)
			return 2
		}
		opts := kernel.InstallOptions{Name: *name, User: *user, Prefix: *prefix}
		bin, copied, err := stableBinary(opts)
		if err != nil {
			fmt.Fprintf(stderr, "ptorepl: kernel install: %v\n", err)
			return 1
		}
		opts.Binary = bin
		dir, err := kernel.Install(opts)
		if err != nil {
			fmt.Fprintf(stderr, "ptorepl: kernel install: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "installed kernelspec %s in %s\n", *name, dir)
		if copied {
			fmt.Fprintf(stdout, "this ptorepl was a temporary build (go run), so the kernel runs a copy of it: %s\n", bin)
		} else {
			fmt.Fprintf(stdout, "the kernel runs %s\n", bin)
		}
		return 0
	}
	fs := flag.NewFlagSet("kernel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	device := fs.String("device", "", "the device pl.Run uses by default in this kernel: sim (default) or mpi")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	args = fs.Args()
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: ptorepl kernel [--device sim|mpi] CONNECTION_FILE | ptorepl kernel install [--user] [--prefix DIR] [--name NAME]")
		return 2
	}
	if err := useDevice(*device); err != nil {
		fmt.Fprintf(stderr, "ptorepl: %v\n", err)
		return 1
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

// stableBinary returns the binary the kernelspec should run: this
// executable, or, when it lives in a temporary directory (go run and go test
// build there and delete it afterwards), a copy of it in the kernelspec's
// own folder.
func stableBinary(o kernel.InstallOptions) (bin string, copied bool, err error) {
	exe, err := os.Executable()
	if err != nil {
		return "", false, err
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	if !isTemporary(exe) {
		return exe, false, nil
	}
	dir, err := kernel.KernelDir(o)
	if err != nil {
		return "", false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, err
	}
	dst := filepath.Join(dir, "ptorepl")
	if err := copyExecutable(exe, dst); err != nil {
		return "", false, fmt.Errorf("copying the temporary binary %s into the kernelspec: %w", exe, err)
	}
	return dst, true, nil
}

// isTemporary reports whether path is under the system's temporary
// directory or in a go build cache work directory.
func isTemporary(path string) bool {
	tmp := os.TempDir()
	if r, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = r
	}
	if rel, err := filepath.Rel(tmp, path); err == nil && !strings.HasPrefix(rel, "..") {
		return true
	}
	return strings.Contains(filepath.ToSlash(path), "/go-build")
}

// copyExecutable copies src to dst through a temporary file and a rename,
// so a kernel running the old dst is never left with a half-written file.
func copyExecutable(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".ptorepl-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, in); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o755); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// useDevice makes the device called name pl.Run's default ("": keep the
// simulator).
func useDevice(name string) error {
	if name == "" {
		return nil
	}
	d, err := runtime.OpenDevice(name, runtime.DeviceConfig{})
	if err != nil {
		return err
	}
	pl.Device = d
	return nil
}
