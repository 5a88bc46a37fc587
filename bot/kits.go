package bot

// kits lists the games the rule-based and search bots know in particular;
// any other game gets random moves from easy and medium, and the generic
// search domain (random playouts) from hard.
var kits = map[string]Kit{}
