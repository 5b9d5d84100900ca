package interp

//go:generate go run ./internal/gendoc -o docs_gen.go ../pl ../pld ../tensor ../display

// docEntry is the documentation of one exported name of pl, pld or tensor.
type docEntry struct {
	Signature string
	Doc       string
}
