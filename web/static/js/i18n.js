// Translations: flat keys, one JSON file per language in /i18n/ for the
// room (i18n/<lang>.json) and one per game and language for each registered
// game (i18n/games/<game>.<lang>.json, keys "<game>.…"), merged into one
// dictionary. The browser's language is the default; the choice is
// remembered.

export const LANGS = ['en', 'pl', 'cs', 'tr'];
export const LANG_NAMES = { en: 'English', pl: 'Polski', cs: 'Čeština', tr: 'Türkçe' };

let dict = {};
let fallback = {};
let lang = 'en';
const listeners = [];
const packs = []; // the games whose translations are loaded with the room's

// addPack adds a game's translation files (the game registry calls it for
// every registered game, before the first setLang).
export function addPack(name) {
  if (!packs.includes(name)) packs.push(name);
}

export function currentLang() { return lang; }

export function detectLang() {
  const saved = localStorage.getItem('cardroom.lang');
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(code)) return code;
  }
  return 'en';
}

async function loadFile(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(`cannot load ${path}`);
  return r.json();
}

async function load(l) {
  // A game's missing file leaves its texts to the English fallback (or the
  // keys) rather than the whole room without words.
  const files = await Promise.all([loadFile(`i18n/${l}.json`),
    ...packs.map((g) => loadFile(`i18n/games/${g}.${l}.json`).catch(() => ({})))]);
  return Object.assign({}, ...files);
}

export async function setLang(l, remember) {
  if (!LANGS.includes(l)) l = 'en';
  if (remember) localStorage.setItem('cardroom.lang', l);
  if (!Object.keys(fallback).length) fallback = await load('en');
  dict = l === 'en' ? fallback : await load(l);
  lang = l;
  document.documentElement.lang = l;
  for (const f of listeners) f(l);
}

export function onLangChange(f) { listeners.push(f); }

// PLURALS are the plural categories each language's texts may have
// variants for (Intl.PluralRules's; web/i18n_test.go checks the same list):
// Polish and Czech say 2–4 cards differently from 5 (few), English and
// Turkish only 1 apart (one).
export const PLURALS = { en: ['one', 'other'], pl: ['one', 'few', 'many', 'other'], cs: ['one', 'few', 'many', 'other'], tr: ['one', 'other'] };

const pluralRules = new Map();

// pluralOf is the plural category of n in language l ("one", "few", …).
export function pluralOf(l, n) {
  if (!pluralRules.has(l)) {
    let r = null;
    try { r = new Intl.PluralRules(l); } catch { /* an engine without Intl: one and other */ }
    pluralRules.set(l, r);
  }
  const r = pluralRules.get(l);
  return r ? r.select(n) : (n === 1 ? 'one' : 'other');
}

// pick is the text of key in d for the count n: its variant for n's plural
// category in language l (key_one, key_few, key_many, key_other), else the
// plain key.
function pick(d, l, key, n) {
  if (n !== null) {
    const v = d[key + '_' + pluralOf(l, n)];
    if (v !== undefined) return v;
  }
  return d[key];
}

// t("key", {name: "x"}) → the text with {name} replaced. A numeric n picks
// the plural variant of the current language ("{n} karty" for 2–4 in
// Polish, "{n} kart" for 5), falling back to the plain key, and only then
// to English.
export function t(key, params) {
  const raw = params ? params.n : undefined;
  const num = raw === undefined || raw === null || raw === '' ? NaN : Number(raw);
  const n = Number.isFinite(num) ? num : null;
  let s = pick(dict, lang, key, n) ?? pick(fallback, 'en', key, n);
  if (s === undefined) return key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
  return s;
}

export function has(key) { return dict[key] !== undefined || fallback[key] !== undefined; }

// cardName("7H") → "7 of hearts" in the current language.
export function cardName(c) {
  if (!c) return t('card.hidden');
  if (c === 'JK') return t('card.joker');
  const rank = c.slice(0, -1);
  const suit = c.slice(-1);
  const r = has('rank.' + rank) ? t('rank.' + rank) : rank;
  return t('card.name', { rank: r, suit: t('suit.' + suit) });
}

// Light markup for long texts: "## " heading, "- " list item, blank line = paragraph.
export function renderRich(text) {
  const root = document.createElement('div');
  root.className = 'rich';
  let list = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) { list = null; continue; }
    if (line.startsWith('## ')) {
      list = null;
      const h = document.createElement('h3');
      h.textContent = line.slice(3);
      root.appendChild(h);
    } else if (line.startsWith('- ')) {
      if (!list) { list = document.createElement('ul'); root.appendChild(list); }
      const li = document.createElement('li');
      li.textContent = line.slice(2);
      list.appendChild(li);
    } else {
      list = null;
      const p = document.createElement('p');
      p.textContent = line;
      root.appendChild(p);
    }
  }
  return root;
}
