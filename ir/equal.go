package ir

// TEMPORARY placeholder: replaced by the structural-equality implementation.
func StructuralEqual(a, b any, autoMap bool) bool { return a == b }
