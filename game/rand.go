package game

import (
	"math/bits"
	"math/rand/v2"
)

// Rand is the seeded, reproducible generator every engine and bot draws its
// chance from. It is a plain value (no pointers), so copying a state that
// embeds one copies the generator too, and it never allocates.
// The sequence is PCG (math/rand/v2), fixed for a seed on every platform.
type Rand struct {
	pcg rand.PCG
}

// NewRand returns a generator for the seed.
func NewRand(seed uint64) Rand {
	var r Rand
	r.Seed(seed)
	return r
}

// Seed resets the generator.
func (r *Rand) Seed(seed uint64) { r.pcg.Seed(seed, seed^0x9e3779b97f4a7c15) }

// Uint64 returns 64 random bits.
func (r *Rand) Uint64() uint64 { return r.pcg.Uint64() }

// IntN returns a uniform integer in [0, n); n must be > 0. Unbiased (Lemire).
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		panic("game.Rand.IntN: n <= 0")
	}
	un := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), un)
		}
	}
	return int(hi)
}

// Float64 returns a uniform float in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Shuffle permutes n elements uniformly (Fisher–Yates) through swap.
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.IntN(i+1))
	}
}

// ShuffleCards permutes a card slice in place without a closure.
func (r *Rand) ShuffleCards(cs []Card) {
	for i := len(cs) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		cs[i], cs[j] = cs[j], cs[i]
	}
}

// RandomBits picks k distinct set bits of m uniformly and returns them as a mask.
func (r *Rand) RandomBits(m Mask, k int) Mask {
	var out Mask
	n := m.Count()
	for ; k > 0 && n > 0; k-- {
		i := m.Nth(r.IntN(n))
		out |= Bit(i)
		m &^= Bit(i)
		n--
	}
	return out
}
