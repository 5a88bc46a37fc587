// The games of the client, in the lobby's order. Each module registers
// itself with the registry (../games.js) when imported: a new game adds its
// one line here.
import './papayoo.js';
import './rum500.js';
import './pisyedili.js';
