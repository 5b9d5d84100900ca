package tensor

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptorepl/ptorepl/ir"
)

// htmlShape parses an HTML fragment as XML (it must be well formed) and returns, per
// table, the cell texts by row, plus the texts of caption and slice-header elements.
func htmlShape(t *testing.T, s string) (tables [][][]string, labels []string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	var stack []string
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well formed: %v\n%s", err, s)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			name := tok.Name.Local
			class := ""
			for _, a := range tok.Attr {
				if a.Name.Local == "class" {
					class = a.Value
				}
			}
			switch name {
			case "table":
				tables = append(tables, nil)
			case "tr":
				tables[len(tables)-1] = append(tables[len(tables)-1], nil)
			}
			if class != "" {
				name += "." + class
			}
			stack = append(stack, name)
			text.Reset()
		case xml.CharData:
			text.Write(tok)
		case xml.EndElement:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch top {
			case "td":
				tb := tables[len(tables)-1]
				tb[len(tb)-1] = append(tb[len(tb)-1], text.String())
			case "caption", "div.caption", "div.slice", "div.ellipsis", "div.empty":
				labels = append(labels, text.String())
			}
			text.Reset()
		}
	}
	if len(stack) != 0 {
		t.Fatalf("unclosed elements %v", stack)
	}
	return tables, labels
}

func TestHTMLStructure(t *testing.T) {
	cases := []struct {
		name   string
		x      *Tensor
		tables [][][]string // nil: only check counts below
		rows   int          // rows per table
		cols   int          // cells per row
		labels []string
	}{
		{name: "2-D", x: FromFloat32([]float32{1.5, 2, 3, 4, 5, 6}, 2, 3),
			tables: [][][]string{{{"1.5000", "2.0000", "3.0000"}, {"4.0000", "5.0000", "6.0000"}}},
			labels: []string{"tensor pl.FP32 [2, 3]"}},
		{name: "1-D is one row", x: FromInt32([]int32{7, -8, 9}),
			tables: [][][]string{{{"7", "-8", "9"}}},
			labels: []string{"tensor pl.INT32 [3]"}},
		{name: "0-d", x: Full(ir.FP16, 2),
			tables: [][][]string{{{"2."}}},
			labels: []string{"tensor pl.FP16 []"}},
		{name: "bool", x: FromFloat64(ir.BOOL, []float64{1, 0}),
			tables: [][][]string{{{"True", "False"}}},
			labels: []string{"tensor pl.BOOL [2]"}},
		{name: "3-D stack", x: Arange(ir.INT32, 12).Reshape(2, 2, 3),
			tables: [][][]string{{{"0", "1", "2"}, {"3", "4", "5"}}, {{"6", "7", "8"}, {"9", "10", "11"}}},
			labels: []string{"tensor pl.INT32 [2, 2, 3]", "[0, :, :]", "[1, :, :]"}},
		{name: "4-D headers", x: Arange(ir.INT8, 8).Reshape(2, 2, 1, 2),
			labels: []string{"tensor pl.INT8 [2, 2, 1, 2]", "[0, 0, :, :]", "[0, 1, :, :]", "[1, 0, :, :]", "[1, 1, :, :]"},
			rows:   1, cols: 2},
		{name: "summarized 1-D", x: Arange(ir.INT32, 2000),
			tables: [][][]string{{{"0", "1", "2", "…", "1997", "1998", "1999"}}},
			labels: []string{"tensor pl.INT32 [2000] (summarized)"}},
		{name: "summarized 2-D", x: Arange(ir.INT32, 2000).Reshape(40, 50),
			rows: 7, cols: 7, labels: []string{"tensor pl.INT32 [40, 50] (summarized)"}},
		{name: "summarized 3-D", x: Arange(ir.INT32, 2000).Reshape(10, 20, 10),
			rows: 7, cols: 7,
			labels: []string{"tensor pl.INT32 [10, 20, 10] (summarized)",
				"[0, :, :]", "[1, :, :]", "[2, :, :]", "⋮", "[7, :, :]", "[8, :, :]", "[9, :, :]"}},
		{name: "empty", x: Zeros(ir.FP32, 0, 2),
			labels: []string{"tensor pl.FP32 [0, 2]", "(no elements)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tables, labels := htmlShape(t, c.x.HTML())
			if strings.Join(labels, "|") != strings.Join(c.labels, "|") {
				t.Errorf("labels %q, want %q", labels, c.labels)
			}
			if c.tables != nil {
				if got, want := tableString(tables), tableString(c.tables); got != want {
					t.Errorf("cells\n got %s\nwant %s", got, want)
				}
				return
			}
			for _, tb := range tables {
				if len(tb) != c.rows {
					t.Errorf("%d rows, want %d", len(tb), c.rows)
				}
				for _, r := range tb {
					if len(r) != c.cols {
						t.Errorf("%d cells, want %d", len(r), c.cols)
					}
				}
			}
		})
	}
	// The skipped-rows row of a summarized matrix: ⋮ under values, ⋱ under the … column.
	tables, _ := htmlShape(t, Arange(ir.INT32, 2000).Reshape(40, 50).HTML())
	if got := strings.Join(tables[0][3], " "); got != "⋮ ⋮ ⋮ ⋱ ⋮ ⋮ ⋮" {
		t.Errorf("ellipsis row %q", got)
	}
	if got := strings.Join(tables[0][6], " "); got != "1950 1951 1952 … 1997 1998 1999" {
		t.Errorf("last row %q", got)
	}
}

func tableString(tables [][][]string) string {
	var b strings.Builder
	for _, tb := range tables {
		b.WriteString("{")
		for _, r := range tb {
			b.WriteString("[" + strings.Join(r, " ") + "]")
		}
		b.WriteString("}")
	}
	return b.String()
}

func TestHTMLEscaping(t *testing.T) {
	s := FromFloat32([]float32{1}).renderHTML(`x<script>alert("&")</script>`)
	if strings.Contains(s, "<script>") {
		t.Fatalf("caption not escaped:\n%s", s)
	}
	if !strings.Contains(s, "x&lt;script&gt;alert(&#34;&amp;&#34;)&lt;/script&gt;") {
		t.Errorf("unexpected escaping:\n%s", s)
	}
	_, labels := htmlShape(t, s)
	if labels[0] != `x<script>alert("&")</script>` {
		t.Errorf("caption round trip %q", labels[0])
	}
	// 3-D captions go through the same path.
	s = Zeros(ir.FP32, 1, 1, 1).renderHTML("a&b")
	if !strings.Contains(s, `<div class="caption">a&amp;b</div>`) {
		t.Errorf("3-D caption not escaped:\n%s", s)
	}
}

func TestHTMLGolden(t *testing.T) {
	cases := []struct {
		name string
		x    *Tensor
	}{
		{"f32_2x3", FromFloat32([]float32{1.5, -2, 3, 4, 5, 6}, 2, 3)},
		{"i32_summ_3d", Arange(ir.INT32, 2000).Reshape(10, 20, 10)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.x.HTML() + "\n"
			path := filepath.Join("testdata", "html", c.name+".html")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("missing golden (run with -update): %v", err)
			}
			if got != string(want) {
				t.Errorf("HTML mismatch\n got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
