package rum500bot

import "cardroom/bot/kit"

func init() {
	kit.Register("rum500", kit.Kit{Rule: Rule, Domain: NewDomain, Yardstick: NewYardstick, Search: Configure})
}
