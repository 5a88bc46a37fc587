//go:build !race

package wsconn

const raceEnabled = false
