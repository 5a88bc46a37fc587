//go:build !race

package pisyedili

const raceEnabled = false
