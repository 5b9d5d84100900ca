package suggest

import "testing"

func TestNearest(t *testing.T) {
	for _, c := range []struct {
		name  string
		names []string
		want  string
		d     int
	}{
		{"NewProgrm", []string{"NewProgram", "Program", "Tile"}, "NewProgram", 1},
		{"tile", []string{"Tile", "Tiles"}, "Tile", 0},
		{"initmemref", []string{"InitMemRef", "InferTileMemorySpace"}, "InitMemRef", 0},
		{"x", nil, "", -1},
	} {
		got, d := Nearest(c.name, c.names)
		if got != c.want || d != c.d {
			t.Errorf("Nearest(%q) = %q, %d; want %q, %d", c.name, got, d, c.want, c.d)
		}
	}
	if d := Distance("kitten", "sitting"); d != 3 {
		t.Errorf("Distance(kitten, sitting) = %d, want 3", d)
	}
}
