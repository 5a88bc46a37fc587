package pisyedilibot

// TEMPORARY: experiment knobs, removed before the report.

import (
	"os"
	"strconv"
	"strings"
)

var tuneNoise = Noise
var tuneC = 0.0

func init() {
	for _, kv := range strings.Split(os.Getenv("PISY_TUNE"), ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		f, _ := strconv.ParseFloat(v, 64)
		switch k {
		case "depth":
			Depth = int(f)
		case "temp":
			LeafTemp = f
		case "jack":
			LeafJack = f
		case "def":
			LeafDefence = f
		case "noise":
			tuneNoise = f
		case "c":
			tuneC = f
		}
	}
}
