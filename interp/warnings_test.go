package interp_test

import (
	"testing"

	"github.com/ptorepl/ptorepl/interp"
	"github.com/stretchr/testify/require"
)

const notifyInCell = `prog := pl.NewProgram("NotifyIn")
prog.Function("signal_peer", pl.Opaque, func(f *pl.Func) {
	signal := f.In("signal", pld.DistributedTensor(pl.Dims(2, 1), pl.INT32))
	f.Do(pld.Notify(signal, f.Scalar("peer", pl.INT32), pl.Dims(0, 0), 1, pld.Set))
})`

const notifyInWarning = "parameter 'signal' of function 'signal_peer' is declared In but is written by 'pld.system.notify'"

// The kernel displays a compile result through its MIME bundle: the
// post-pipeline warning is in both the text and the HTML. The stepper
// reports it once the last pass has run, not before.
func TestPostPipelineWarnings(t *testing.T) {
	s := newSession(t)
	eval(t, s, notifyInCell)
	r := eval(t, s, "pl.Compile(prog)")
	require.Len(t, r.Values, 1)
	b := interp.Bundle(r.Values[0])
	require.Contains(t, b["text/plain"], "warning [ParamDirectionsSound]: "+notifyInWarning)
	require.Contains(t, b["text/html"], "parameter &#39;signal&#39; of function &#39;signal_peer&#39; is declared In")

	st := interp.NewStepper(s.LastProgram())
	for range interp.Passes() {
		require.Empty(t, st.Warnings())
		_, ok, err := st.Step()
		require.NoError(t, err)
		require.True(t, ok)
	}
	require.Len(t, st.Warnings(), 1)
	require.Contains(t, st.Warnings()[0], notifyInWarning)

	ws, err := interp.Warnings(s.LastProgram())
	require.NoError(t, err)
	require.Equal(t, st.Warnings(), ws)
}
