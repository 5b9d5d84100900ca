package passes_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptorepl/ptorepl/passes"
	"github.com/ptorepl/ptorepl/pl"
)

// Two scopes of one function sharing a name hint are outlined to hint and
// hint_0; a hint another function's scope already took is namespaced
// under the function (second_twice), as upstream's outliner names them.
func TestOutlinedNameCollisions(t *testing.T) {
	prog := pl.NewProgram("Names")
	scoped := func(name string) {
		prog.Orchestration(name, func(f *pl.Func) {
			a := f.In("a", pl.Tensor(pl.Dims(8, 16), pl.FP32))
			out := f.Out("out", pl.Tensor(pl.Dims(8, 16), pl.FP32))
			f.Returns(pl.Tensor(pl.Dims(8, 16), pl.FP32))
			for i := 0; i < 2; i++ {
				f.InCoreScope("twice", func() {
					t := f.Let("t", pl.Load(a, pl.Dims(0, 0), pl.Dims(8, 16)))
					f.Do(pl.Store(pl.Add(t, t), pl.Dims(0, 0), out))
				})
			}
			f.Return(out)
		})
	}
	scoped("first")
	scoped("second")
	q, err := passes.OutlineIncoreScopes(prog.IR())
	require.NoError(t, err)
	var names []string
	for _, fn := range q.Functions {
		names = append(names, fn.Name)
	}
	require.ElementsMatch(t, []string{"first", "second", "twice", "twice_0", "second_twice", "second_twice_0"}, names)
}
