// The game registry: every game module registers itself once (js/games/<name>.js,
// listed in js/games/index.js) and the shell asks the registry for whatever is
// game-specific. Nothing outside the game modules names a game.
//
// A game module is an object:
//
//   name            the engine's name, as in the protocol and the records
//   icon            the card drawn on its quick-play button (notation: "AS")
//   render(ctx)     → {center, hand, status, sub, badges, log}: the table
//   seatInfo(ctx, s), scores(ctx), finalExtra(ctx)   optional parts of the table
//   describe(text)  a move of this game in words, or undefined for the raw text
//   describeEntry(entry, ctx)   optional: a history entry (docs/protocol.md,
//                   "history") in words, past tense, with seat names; undefined
//                   for the shell's generic line (js/history.js)
//   holdFor(entry, seat)        optional: how long (ms) the state that brings
//                   this entry stays on screen, or undefined for the shell's
//                   default (views/table.js, "pacing")
//   rulesText(options)          optional: the rules text for a table's
//                   options (its target, its rounds, its jokers), or with
//                   null the general rules; undefined for <name>.rules as
//                   it is (helpText)
//   hiddenOptions   option names the create dialog does not offer
//   listOptions     option names the lobby list shows beside the game's name
//   defaultOptions  options the create dialog and quick play start from ({})
//
// Its texts are its own translation files, i18n/games/<name>.<lang>.json,
// every key under "<name>.": <name>.name (its title), <name>.rules and
// <name>.tips (the help panel), <name>.opt.<option> and <name>.val.<value>
// (the create dialog), and whatever its table needs.
import { t, has, addPack } from './i18n.js';

const games = new Map();

// register adds a game module (once) and its translations; it returns the
// module, so a module can end with `export default register({...})`.
export function register(mod) {
  if (!mod || !/^[a-z0-9_]+$/.test(mod.name || '')) throw new Error('register: a game module needs a name');
  if (games.has(mod.name)) throw new Error(`register: ${mod.name} registered twice`);
  if (typeof mod.render !== 'function') throw new Error(`register: ${mod.name} has no render(ctx)`);
  for (const hook of ['describeEntry', 'holdFor', 'rulesText']) {
    if (mod[hook] !== undefined && typeof mod[hook] !== 'function') throw new Error(`register: ${mod.name}.${hook} is not a function`);
  }
  games.set(mod.name, {
    icon: 'back', hiddenOptions: [], listOptions: [], defaultOptions: {}, ...mod,
  });
  addPack(mod.name);
  return games.get(mod.name);
}

// game returns the module of a registered game, or undefined.
export function game(name) { return games.get(name); }

// gameNames lists the registered games in registration order (the order of
// js/games/index.js, which is the lobby's).
export function gameNames() { return [...games.keys()]; }

// gameTitle is the game's name in the current language.
export function gameTitle(name) { return has(name + '.name') ? t(name + '.name') : String(name); }

// helpText is the game's rules or tips (tab: "rules" or "tips"). The
// rules are those of the table's options when given (the module's
// rulesText), else the general rules: a table plays what it says, not the
// defaults.
export function helpText(name, tab, options) {
  const g = games.get(name);
  if (tab === 'rules' && g && g.rulesText) {
    let text;
    try { text = g.rulesText(options || null); } catch (err) { console.warn('rulesText', err); }
    if (text) return dropEmptyItems(text);
  }
  return has(name + '.' + tab) ? t(name + '.' + tab) : '';
}

// dropEmptyItems removes the list items a rules text left empty (a
// "- {joker_rule}" line of a table without jokers), so that a rule the
// table does not play leaves no trace.
export function dropEmptyItems(text) {
  return text.split('\n').filter((l) => l.trim() !== '-').join('\n');
}

// ruleSaid is one house rule of a rules text (rulesText) in the rules'
// words: with a table (options) the text of key, the rule the table plays;
// without one the default rule's text (dflt) and its note of what a table
// may agree instead (dflt + "_note").
export function ruleSaid(options, dflt, key) {
  return options ? t(key) : t(dflt) + ' ' + t(dflt + '_note');
}

// optionFlag reads a switch of a table's options ("true", "false"), dflt
// when unset.
export function optionFlag(v, dflt) {
  return v === undefined || v === null || v === '' ? dflt : String(v) === 'true';
}

// describeMove says a move of the game in words (the raw text when the game
// has no words for it).
export function describeMove(name, text) {
  if (!text) return '';
  const g = games.get(name);
  return (g && g.describe && g.describe(text)) || text;
}

// optionLabel names an option in the create dialog and the lobby: the
// game's own label, else the room's (opt.players), else the option's name.
export function optionLabel(name, opt) {
  if (has(`${name}.opt.${opt}`)) return t(`${name}.opt.${opt}`);
  if (has('opt.' + opt)) return t('opt.' + opt);
  return opt;
}

// valueLabel names an enumerated option's value, else shows it as it is.
export function valueLabel(name, v) {
  return has(`${name}.val.${v}`) ? t(`${name}.val.${v}`) : v;
}
