package ir

import "testing"

// FuzzUnmarshalProgram: the reader returns an error for bad input, never
// panics, and anything it accepts marshals again.
func FuzzUnmarshalProgram(f *testing.F) {
	var t testing.T
	if data, err := MarshalProgram(sharedProgram(&t)); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"format": "ptorepl-ir", "version": 1, "program": {"name": "P", "functions": [], "comm_groups": []}}`))
	f.Add([]byte(`{"format": "ptorepl-ir", "version": 1, "program": {"name": "P", "functions": [{"ref": 1}]}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := UnmarshalProgram(data)
		if err != nil {
			return
		}
		if _, err := MarshalProgram(p); err != nil {
			t.Fatalf("accepted program does not marshal: %v", err)
		}
	})
}
