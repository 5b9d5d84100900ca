package checker

// FindingKey identifies a finding across schedules (the same ops, the same
// cells), for tests comparing the findings of many schedules.
func FindingKey(f Finding) string { return string(f.Kind) + " " + f.key }
