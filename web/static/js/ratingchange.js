// The rating change at the end of a rated game: each seat's rating before
// and after, shown in the final scores. The server rates a game just after
// it ends (server/ratings.go), so the histories are polled briefly until
// every seat's entry for this table is there.
import { h } from './dom.js';
import { t } from './i18n.js';
import { api } from './net.js';
import { onRoute } from './app.js';
import { seatName } from './pieces.js';
import { ratedPlayer } from './rated.js';

// POLL_MS and POLL_TRIES bound the polling: about 12 s in all, then what
// arrived is shown and the rest says "not updated yet".
const POLL_MS = 800;
const POLL_TRIES = 15;

// byTable: table id → {changes: Map(player → {before, after}), done, tries}.
// One entry per rated player, not per seat: bots of one level at several
// seats are one rated player ("bot:random") with one change per game.
const byTable = new Map();

// ratingChange returns the rating change box for the final scores of a
// rated table (null for a casual one), starting the polling the first
// time; rerender redraws the page when the changes arrive.
export function ratingChange(ctx, tb, rerender) {
  if (!tb || !tb.summary || !tb.summary.rated || !ctx.state) return null;
  const id = ctx.state.table;
  const players = new Map(); // rated player → its label, in seat order
  for (const s of ctx.seats || []) {
    const p = ratedPlayer(s);
    if (p && !players.has(p)) players.set(p, p.startsWith('bot:') ? t('bot.short', { level: t('level.' + p.slice(4)) }) : seatName(ctx, s.seat));
  }
  let rc = byTable.get(id);
  if (!rc) {
    rc = { changes: new Map(), done: false, tries: 0 };
    byTable.set(id, rc);
    poll(id, ctx.game, [...players.keys()], rc, rerender);
  }
  return h('div', { class: 'rating-change', 'data-testid': 'rating-change', 'data-done': String(rc.done) },
    h('h3', {}, t('rated.change_title')),
    h('ul', { class: 'games' }, [...players].map(([p, label]) => {
      const c = rc.changes.get(p);
      const d = c ? c.after - c.before : 0;
      return h('li', { 'data-testid': 'rating-change-row', 'data-player': p },
        h('span', {}, label, ': '),
        c ? h('strong', {}, t('rated.change', { a: c.before, b: c.after, d: (d > 0 ? '+' : '') + d }))
          : h('span', { class: 'meta' }, rc.done ? t('rated.change_pending') : t('rated.change_loading')));
    })));
}

async function poll(id, game, players, rc, rerender) {
  while (rc.tries < POLL_TRIES) {
    rc.tries++;
    await Promise.all(players.filter((p) => !rc.changes.has(p)).map(async (p) => {
      try {
        // A bot level plays many games at once: its entry for this table
        // is among its latest, not necessarily the latest.
        const r = await api('GET', `/api/players/${encodeURIComponent(p)}/ratings?game=${encodeURIComponent(game)}&limit=50`);
        const e = (r.history || []).find((x) => x.table === id);
        if (e) rc.changes.set(p, { before: e.before, after: e.after });
      } catch { /* tried again */ }
    }));
    if (rc.changes.size >= players.length) break;
    await new Promise((ok) => setTimeout(ok, POLL_MS));
  }
  rc.done = true;
  if (onRoute('table', id) && rerender) rerender();
}
