package pl_test

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/pl"
	"github.com/ptorepl/ptorepl/pld"
	"github.com/ptorepl/ptorepl/testprogs"
	"github.com/stretchr/testify/require"
)

func notifyWait() *pl.Program {
	return testprogs.Collective("NotifyWait", 1, 0, func(f *pl.Func, x, data, sig pl.Expr) {
		ctx := f.Let("ctx", pld.GetCommCtx(data))
		me := f.Let("me", pld.Rank(ctx))
		f.Do(pld.Notify(sig, me, pl.Dims(me, 0), 1, pld.AtomicAdd))
		f.Do(pld.Wait(sig, pl.Dims(me, 0), 1, pld.Ge))
	})
}

var tag = regexp.MustCompile(`<[^>]*>`)

// The printed text keeps upstream's op=0 / cmp=1; the HTML view says what
// they mean beside them, and without the notes reads exactly as the text.
func TestProgramHTMLAnnotatesEnums(t *testing.T) {
	p := notifyWait()
	text := p.String()
	require.Contains(t, text, "op=0)")
	require.Contains(t, text, "cmp=1)")
	require.NotContains(t, text, "AtomicAdd", "the text stays byte-identical to PyPTO's")
	h := display.Bundle(p)["text/html"]
	require.Contains(t, h, "# op=0: AtomicAdd")
	require.Contains(t, h, "# cmp=1: Ge")
	notes := regexp.MustCompile(`<span class="ptorepl-enum-note"[^>]*>[^<]*</span>`)
	plain := html.UnescapeString(tag.ReplaceAllString(notes.ReplaceAllString(h, ""), ""))
	require.Equal(t, text, plain)
}

// Raw IR values (what c.Final() and stage.Program() give, a function) get
// the same notes as pl.Program, since cells display them too.
func TestRawIRAnnotatesEnums(t *testing.T) {
	final := notifyWait().IR()
	for _, v := range []any{final, final.Functions[0]} {
		h := display.Bundle(v)["text/html"]
		text := display.PlainText(v)
		if strings.Contains(text, "pld.system.notify(") {
			require.Contains(t, h, "# op=0: AtomicAdd")
		}
		if strings.Contains(text, "pld.system.wait(") {
			require.Contains(t, h, "# cmp=1: Ge")
		}
	}
	require.Contains(t, display.Bundle(final)["text/html"], "ptorepl-enum-note")
}

// Stages, stage lists, Differential and options print as words, not Go structs.
func TestCompiledValuesReadAsWords(t *testing.T) {
	c := pl.Compile(quickstart())
	stages := c.Stages()
	list := stages.String()
	require.Regexp(t, `^ 0 Input +the program as written\n`, list)
	require.Regexp(t, `\n\d+ InsertCommFence +changed: \+\d+ -\d+ lines`, list)
	require.Contains(t, list, "unchanged")
	printed := fmt.Sprint(stages)
	require.NotContains(t, printed, "{", "no struct dump")
	require.NotContains(t, printed, "0x")
	s, ok := c.Stage("ConvertToSSA")
	require.True(t, ok)
	require.True(t, strings.HasPrefix(fmt.Sprint(s), "# after ConvertToSSA (changed: +"))
	require.Contains(t, display.Bundle(s)["text/html"], "<details>")
	require.Contains(t, display.Bundle(stages)["text/html"], "InsertCommFence")
	require.Contains(t, c.String(), "PTO-MLIR: 1 InCore modules")

	require.Equal(t, "no pass differs", pl.Difference{}.String())
	require.Equal(t, "after ConvertToSSA argument 1 differs", pl.Difference{Pass: "ConvertToSSA", Why: "argument 1 differs"}.String())
	require.Equal(t, "pl.Ranks(4)", pl.Ranks(4).String())
	require.Equal(t, "pl.Ranks(2).Unchecked()", pl.Ranks(2).Unchecked().String())
	require.Equal(t, "pl.range(0, 4, 1)", pl.Range(4).String())
}

// A finding prints as the report line it is, not as a struct.
func TestFindingReadsAsWords(t *testing.T) {
	f := pl.Finding{Kind: "deadlock", Severity: 0, Message: "rank 1 waits", Details: []string{"a\nb"}}
	require.Equal(t, f.Severity.String()+" [deadlock] rank 1 waits\n    a\n    b", fmt.Sprint(f))
}
