package kernel

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
)

// Spec is a kernelspec's kernel.json.
type Spec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata,omitempty"`
}

// InstallOptions choose where a kernelspec goes.
type InstallOptions struct {
	Name   string // directory name, default "ptorepl"
	User   bool   // the user's data dir (JUPYTER_DATA_DIR if set)
	Prefix string // PREFIX/share/jupyter/kernels
	Binary string // absolute path of the ptorepl binary
}

// KernelDir is where Install writes the spec for o.
func KernelDir(o InstallOptions) (string, error) {
	name := o.Name
	if name == "" {
		name = "ptorepl"
	}
	switch {
	case o.Prefix != "":
		return filepath.Join(o.Prefix, "share", "jupyter", "kernels", name), nil
	case o.User || os.Getenv("JUPYTER_DATA_DIR") != "":
		if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
			return filepath.Join(d, "kernels", name), nil
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, ".local", "share", "jupyter", "kernels", name), nil
	}
	return filepath.Join("/usr/local/share/jupyter/kernels", name), nil
}

// Install writes kernel.json and a logo and returns the directory.
func Install(o InstallOptions) (string, error) {
	dir, err := KernelDir(o)
	if err != nil {
		return "", err
	}
	bin, err := filepath.Abs(o.Binary)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	spec := Spec{Argv: []string{bin, "kernel", "{connection_file}"}, DisplayName: "Go (ptorepl)", Language: "go", InterruptMode: "message"}
	b, _ := json.MarshalIndent(spec, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "kernel.json"), append(b, '\n'), 0o644); err != nil {
		return "", err
	}
	for _, size := range []int{32, 64} {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("logo-%dx%d.png", size, size)))
		if err != nil {
			return "", err
		}
		err = png.Encode(f, logo(size))
		f.Close()
		if err != nil {
			return "", err
		}
	}
	return dir, nil
}

// logo draws the kernel's icon: a 2×2 grid of ranks joined by a ring.
func logo(n int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	bg := color.RGBA{0x1f, 0x3a, 0x5f, 0xff}
	fg := color.RGBA{0x7f, 0xd3, 0xf7, 0xff}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			img.Set(x, y, bg)
		}
	}
	q := n / 4
	for _, c := range [][2]int{{q, q}, {3 * q, q}, {q, 3 * q}, {3 * q, 3 * q}} {
		for y := -n / 10; y <= n/10; y++ {
			for x := -n / 10; x <= n/10; x++ {
				img.Set(c[0]+x, c[1]+y, fg)
			}
		}
	}
	for i := q; i <= 3*q; i++ {
		img.Set(i, q, fg)
		img.Set(i, 3*q, fg)
		img.Set(q, i, fg)
		img.Set(3*q, i, fg)
	}
	return img
}
