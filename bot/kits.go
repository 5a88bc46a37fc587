package bot

import (
	"cardroom/bot/papayoobot"
	"cardroom/bot/pisyedilibot"
	"cardroom/bot/rum500bot"
)

// kits lists the games the rule-based and search bots know in particular;
// any other game gets random moves from easy and medium, and the generic
// search domain (random playouts) from hard.
var kits = map[string]Kit{
	"papayoo":   {Rule: papayoobot.Rule, Domain: papayoobot.NewDomain, Search: papayoobot.Configure},
	"pisyedili": {Rule: pisyedilibot.Rule, Domain: pisyedilibot.NewDomain, Search: pisyedilibot.Configure, PriorShare: pisyedilibot.PriorShare},
	"rum500":    {Rule: rum500bot.Rule, Domain: rum500bot.NewDomain, Search: rum500bot.Configure},
}
