// A table's options in words, for the lobby, the replay and the rules
// panel: what this table really plays (its target, its rounds), not the
// rules' defaults. Options arrive complete from the server (the engine
// fills in the defaults), as name → text.
import { h } from './dom.js';
import { t } from './i18n.js';
import { optionSpecs } from './app.js';
import { game, optionLabel, valueLabel } from './games.js';

// optionValue says one option's value in words: yes/no for a switch, the
// game's label for an enumerated value, the number itself otherwise.
export function optionValue(name, opt, v) {
  const spec = optionSpecs(name).find((o) => o.name === opt);
  if ((spec && spec.kind === 'bool') || v === 'true' || v === 'false') return v === 'true' ? t('opt.yes') : t('opt.no');
  return valueLabel(name, v);
}

// optionItems lists [label, value] pairs in the order the server describes
// the game's options, without those the create dialog hides; keys, when
// given, keeps only those options (a game's listOptions).
export function optionItems(name, options, keys) {
  if (!options) return [];
  const mod = game(name);
  const hidden = (mod && mod.hiddenOptions) || [];
  const order = optionSpecs(name).map((o) => o.name);
  for (const k of Object.keys(options).sort()) if (!order.includes(k)) order.push(k);
  return order
    .filter((k) => options[k] !== undefined && options[k] !== '' && !hidden.includes(k) && (!keys || keys.includes(k)))
    .map((k) => [optionLabel(name, k), optionValue(name, k, options[k])]);
}

// optionsText is the options as one line: "Rounds: 2 · Players: 4".
export function optionsText(name, options, keys) {
  return optionItems(name, options, keys).map(([l, v]) => `${l}: ${v}`).join(' · ');
}

// optionsBox is every option of a table as a short list under a heading
// ("This table"), or null when there are none.
export function optionsBox(name, options, testid) {
  const items = optionItems(name, options);
  if (!items.length) return null;
  return h('div', { class: 'table-opts', 'data-testid': testid || 'table-options' },
    h('h3', {}, t('options.title')),
    h('ul', {}, items.map(([l, v]) => h('li', {}, h('span', {}, l, ': '), h('strong', {}, v)))));
}
