package main

import (
	"fmt"
	"os"

	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/printer"
	"github.com/ptorepl/ptorepl/pyfront"
)

func main() {
	mod, err := pyfront.Load(os.Args[1])
	if err != nil {
		fmt.Println(err)
		return
	}
	progs, _, err := mod.Defined(os.Args[2])
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range passes.Table() {
		if p.Name == os.Args[3] {
			got, err := p.Run(progs["Before"])
			if err != nil {
				fmt.Println(err)
				return
			}
			fmt.Println("=== GOT")
			fmt.Println(printer.Program(got))
			fmt.Println("=== EXPECTED")
			fmt.Println(printer.Program(progs["Expected"]))
		}
	}
}
