package papayoobot

import "cardroom/bot/kit"

func init() {
	kit.Register("papayoo", kit.Kit{Rule: Rule, Domain: NewDomain, Search: Configure})
}
