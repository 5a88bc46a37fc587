package pisyedilibot

import "cardroom/bot/kit"

func init() {
	kit.Register("pisyedili", kit.Kit{Rule: Rule, Domain: NewDomain, Search: Configure, PriorShare: PriorShare})
}
