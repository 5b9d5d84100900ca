// Package suggest finds the name a user most likely meant: the REPL's
// "did you mean" for pass names, package members and methods.
package suggest

import "strings"

// Distance is the Levenshtein distance of a and b (bytes).
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// Nearest is the one of names nearest to name, ignoring case, and its
// distance ("", -1 when names is empty); one equal but for case is at 0.
func Nearest(name string, names []string) (string, int) {
	best, bestD := "", -1
	for _, c := range names {
		d := Distance(strings.ToLower(name), strings.ToLower(c))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best, bestD
}
