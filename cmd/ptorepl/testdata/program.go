// A whole Go program: `ptorepl run` runs main once, with os.Args and the
// exit code as `go run` gives them.
package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	fmt.Println("args:", strings.Join(os.Args[1:], ","))
	if len(os.Args) > 2 {
		os.Exit(3)
	}
}
