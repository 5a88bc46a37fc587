//go:build race

package wsconn

// raceEnabled: under the race detector sync.Pool drops what it is given
// at random, so the allocation counts of pooled paths are not checked.
const raceEnabled = true
