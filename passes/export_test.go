package passes

// SetDirectionRoundsCap caps upgradeDirections' fixpoint rounds for a test and
// returns a function restoring the derived bound.
func SetDirectionRoundsCap(n int) (restore func()) {
	old := directionRoundsCap
	directionRoundsCap = n
	return func() { directionRoundsCap = old }
}
