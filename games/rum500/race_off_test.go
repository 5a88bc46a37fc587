//go:build !race

package rum500

const raceEnabled = false
