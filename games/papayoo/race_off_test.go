//go:build !race

package papayoo

const raceEnabled = false
