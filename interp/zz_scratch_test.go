package interp_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ptorepl/ptorepl/interp"
)

func TestZZScratch(t *testing.T) {
	cells := [][]string{
		{"x := 2\nswitch x {\ncase 1:\n\tfmt.Println(1)\ndefault:\n\tfmt.Println(\"d\")\n}"},
		{"func f(x int) int {\nswitch x {\ncase 1:\nreturn 1\n}\nreturn 0\n}\nf(1)"},
		{"for i := 0; i < 2; i++ {\n\ta, b := i, i*2\n\tfmt.Println(a, b)\n}"},
		{"b := 2", "var c int = 5 + b", "c"},
		{"for i := range 3 { fmt.Println(i) }"},
		{"undefinedName + 1"},
		{"type T struct{}\nvar t T = undefinedThing", "type T struct{}\nvar t T\nt"},
		{"type T struct{ a int }\nfunc (t *T) Get() int { return t.a }\nv := &T{3}\nv.Get()"},
		{"func main() { fmt.Println(\"main\") }\nmain()", "1"},
		{"var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }\nfs[0]()+fs[1]()*10+fs[2]()*100"},
		{"func g() int { return 1 }", "func g() int { return 2 }", "g()"},
		{"os.Getenv(\"HOME\")", "len(os.Environ())", "os.Args"},
		{"m := map[string]int{\"a\": 1}\nv, ok := m[\"a\"]\nv, ok"},
		{"var m = map[string]int{}\nif v, ok := m[\"a\"]; !ok { fmt.Println(v, ok) }"},
		{"L:\nfor i := 0; i < 3; i++ { for { continue L } }"},
	}
	for k, cs := range cells {
		s, _ := interp.New(interp.Options{})
		for _, c := range cs {
			r, err := s.Eval(context.Background(), c)
			if err != nil {
				fmt.Printf("%d ERR %v\n", k, err)
			} else {
				fmt.Printf("%d OK %q %q\n", k, r.Text(), r.Stdout())
			}
		}
	}
}
