// The move history: the public entries the server adds to `state` messages
// (docs/protocol.md, "history"), kept per table, and the panel that shows
// them in the player's language, newest at the bottom.
import { h } from './dom.js';
import { t } from './i18n.js';
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
export function historyPanel(ctx, tb, upto) {
  const list = tb.history || [];
  const n = Math.min(upto, list.length);
  const items = [];
  const first = Math.max(0, n - SHOWN);
  if (first > 0) items.push(h('li', { 'data-key': 'earlier', class: 'meta' }, t('history.earlier', { n: first })));
  for (let i = first; i < n; i++) {
    const e = list[i];
    if (!e) continue;
    items.push(h('li', { 'data-key': 'e' + i, 'data-testid': 'history-entry', 'data-kind': e.kind, 'data-seat': e.seat, class: e.by ? 'by-bot' : '' },
      describeEntry(ctx.game, e, ctx), e.by ? ' ' : null, byMark(e)));
  }
  const ui = tb.ui;
  return h('section', { class: 'panel history-panel', 'aria-labelledby': 'history-h' },
    h('h3', { id: 'history-h' }, t('history.title')),
    items.length
      ? h('ol', {
        class: 'log history', 'data-testid': 'history', tabindex: '0', 'aria-label': t('history.title'),
        onscroll: (ev) => { const el = ev.currentTarget; ui.histUp = el.scrollTop + el.clientHeight < el.scrollHeight - 8; },
      }, items)
      : h('p', { class: 'meta', 'data-testid': 'history-empty' }, t('history.empty')));
}

// keepScrolled scrolls the history to its newest entry, unless the reader
// scrolled up to read older ones.
export function keepScrolled(root, ui) {
  const el = root.querySelector('[data-testid=history]');
  if (el && !ui.histUp) el.scrollTop = el.scrollHeight;
}
