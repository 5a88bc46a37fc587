// The move history: the public entries the server adds to `state` messages
// (docs/protocol.md, "history"), kept per table, and the panel that shows
// them in the player's language, newest at the bottom.
import { h } from './dom.js';
import { t, currentLang } from './i18n.js';
import { seatName } from './pieces.js';
import { game } from './games.js';

// MAX_ENTRIES bounds what a client keeps of one table's history: a server
// that sent more (a bug or a hostile peer) cannot grow the page without end.
export const MAX_ENTRIES = 20000;

// mergeHistory writes a state message's history entries into the table's
// list at their indexes (an index already held is replaced) and returns the
// length of the history as of that message, which the pacing uses to know
// which entries a state brings. A malformed field changes nothing.
export function mergeHistory(tb, msg) {
  if (!tb.history) tb.history = [];
  const hs = msg.history;
  if (hs && Array.isArray(hs.entries) && Number.isInteger(hs.from) && hs.from >= 0 && hs.from + hs.entries.length <= MAX_ENTRIES) {
    hs.entries.forEach((e, i) => {
      if (e && typeof e === 'object' && typeof e.kind === 'string') tb.history[hs.from + i] = e;
    });
    return hs.from + hs.entries.length;
  }
  return tb.history.length;
}

// describe says one entry in words: the game module's describeEntry, else
// a generic "name: kind" (an entry of a kind no module knows is never an
// error).
export function describeEntry(gameName, e, ctx) {
  const mod = game(gameName);
  let text;
  if (mod && mod.describeEntry) {
    try { text = mod.describeEntry(e, ctx); } catch (err) { console.warn('describeEntry', err); }
  }
  if (text) return text;
  return e.seat >= 0 ? t('history.generic', { name: seatName(ctx, e.seat), kind: e.kind }) : t('history.generic_table', { kind: e.kind });
}

// byMark marks a move a bot made for the player: the clock ran out, or the
// player was away.
export function byMark(e) {
  if (e.by === 'timeout') return h('span', { class: 'badge by-timeout', 'data-testid': 'by-timeout' }, t('history.by_timeout'));
  if (e.by === 'away') return h('span', { class: 'badge by-away', 'data-testid': 'by-away' }, t('history.by_away'));
  return null;
}

// SHOWN is how many of the newest entries the panel lists: a long game's
// panel stays quick to patch.
const SHOWN = 400;

// historyPanel lists entries [0, upto) of the table's history (the newest
// SHOWN of them). The list
// keeps its scroll at the newest entry unless the reader scrolled up
// (ui.histUp, set by its scroll handler; keepScrolled restores it after a
// render).
//
// The list is drawn empty, marked data-sync (morph() then leaves the live
// list's items alone, dom.js), and its items are brought up to date on
// the page by keepScrolled, after the page is drawn: only the entries the
// state brought are built (and the oldest dropped past SHOWN). Building
// all 400 items a draw was half of a draw's time in a long game.
export function historyPanel(ctx, tb, upto) {
  const list = tb.history || [];
  const n = Math.min(upto, list.length);
  const first = Math.max(0, n - SHOWN);
  const ui = tb.ui;
  let any = false;
  for (let i = first; i < n && !any; i++) any = !!list[i];
  ui.histSync = any ? { ctx, tb, first, n } : null;
  return h('section', { class: 'panel history-panel', 'aria-labelledby': 'history-h' },
    h('h3', { id: 'history-h' }, t('history.title')),
    any
      ? h('ol', {
        class: 'log history', 'data-testid': 'history', tabindex: '0', 'aria-label': t('history.title'), 'data-sync': '',
        onscroll: (ev) => { const el = ev.currentTarget; ui.histUp = el.scrollTop + el.clientHeight < el.scrollHeight - 8; },
      })
      : h('p', { class: 'meta', 'data-testid': 'history-empty' }, t('history.empty')));
}

// ids numbers a table's data and its history entries, so that the live
// list can tell an entry replaced at its index (a new object) from the
// one it shows.
const ids = new WeakMap();
let lastId = 0;
function idOf(o) {
  let id = ids.get(o);
  if (id === undefined) { id = ++lastId; ids.set(o, id); }
  return id;
}

function entryItem(ctx, e, i) {
  return h('li', { 'data-key': 'e' + i, 'data-id': idOf(e), 'data-testid': 'history-entry', 'data-kind': e.kind, 'data-seat': e.seat, class: e.by ? 'by-bot' : '' },
    describeEntry(ctx.game, e, ctx), e.by ? ' ' : null, byMark(e));
}

// syncHistory makes the live list show entries [first, n) as
// historyPanel asked: everything again when what the items are said with
// changed (the language, the seat seen from, the names), else only the
// entries it lacks or shows an older object of, the oldest dropped.
function syncHistory(el, s) {
  const { ctx, tb, first, n } = s;
  const list = tb.history || [];
  const names = (ctx.seats || []).map((x) => x.name + (x.account ? '+' : '')).join('\u0001');
  const base = [idOf(tb), currentLang(), ctx.game, ctx.seat, ctx.others ? 1 : 0, names].join('|');
  // (A property, not an attribute: the live element keeps it through
  // morph(), which copies the new tree's attributes over.)
  if (el.histBase !== base) {
    el.replaceChildren();
    el.histBase = base;
  }
  // The live items by index; the ones out of the window or stale go.
  const have = new Map();
  for (const li of [...el.children]) {
    const k = li.getAttribute('data-key') || '';
    const i = k.startsWith('e') ? +k.slice(1) : -1;
    if (i >= first && i < n && list[i] && +li.getAttribute('data-id') === idOf(list[i])) have.set(i, li);
    else li.remove();
  }
  // In order: each missing item goes before the next one the list has.
  let cursor = el.firstChild;
  if (first > 0) {
    const earlier = h('li', { 'data-key': 'earlier', class: 'meta' }, t('history.earlier', { n: first }));
    el.insertBefore(earlier, cursor);
  }
  for (let i = first; i < n; i++) {
    const e = list[i];
    if (!e) continue;
    const li = have.get(i);
    if (li) { cursor = li.nextSibling; continue; }
    el.insertBefore(entryItem(ctx, e, i), cursor);
  }
}

// keepScrolled brings the history list's items up to date (historyPanel)
// and scrolls it to its newest entry, unless the reader scrolled up to
// read older ones.
export function keepScrolled(root, ui) {
  const el = root.querySelector('[data-testid=history]');
  if (el && ui.histSync) syncHistory(el, ui.histSync);
  ui.histSync = null;
  if (el && !ui.histUp) el.scrollTop = el.scrollHeight;
}
