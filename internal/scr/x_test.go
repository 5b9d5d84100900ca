package scr

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptorepl/ptorepl/pl"
)

func TestSweep(t *testing.T) {
	var files []string
	for _, root := range []string{"/tmp/upstream/tests/st", "/tmp/upstream/examples"} {
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if strings.HasSuffix(p, ".py") {
				files = append(files, p)
			}
			return nil
		})
	}
	internal, progs, compiled := 0, 0, 0
	for _, f := range files {
		mod, err := pl.LoadPython(f)
		if err != nil {
			fmt.Println("READFAIL", f, err)
			if strings.Contains(err.Error(), "internal") {
				fmt.Println("READ", err)
				internal++
			}
			continue
		}
		for _, n := range mod.Names() {
			var prog *pl.Program
			if mod.IsFactory(n) {
				prog, err = mod.Call(n)
			} else {
				prog, err = mod.Program(n)
			}
			if err != nil {
				fmt.Println("BUILDFAIL", f, n, err)
				if strings.Contains(err.Error(), "internal") {
					fmt.Println("BUILD", f, n, err)
					internal++
				}
				continue
			}
			progs++
			start := time.Now()
			c, err := pl.TryCompile(prog, pl.Ranks(2))
			if err == nil {
				_, err = c.PTOText()
			}
			if time.Since(start) > 5*time.Second {
				fmt.Println("SLOW", f, n, time.Since(start))
			}
			if err != nil {
				fmt.Println("COMPILEFAIL", f, n, err)
				if strings.Contains(err.Error(), "internal") || strings.Contains(err.Error(), "panic") {
					fmt.Println("COMPILE", f, n, err)
					internal++
				}
				continue
			}
			compiled++
		}
	}
	fmt.Println("files", len(files), "programs", progs, "compiled", compiled, "internal", internal)
}
