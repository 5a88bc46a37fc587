// The replay of a finished game: step by step, from a seat or as a spectator.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../net.js';
import { seatName } from '../util.js';
import { app, tableData, showError } from '../app.js';
import { game, gameTitle, describeMove } from '../games.js';
import { ctxFor, renderSeat, renderGame, helpPanel } from './table.js';

// startReplay is called when the route opens a replay.
export function startReplay(id) {
  app.replay = { id, step: null, seat: -1, data: null };
}

// stepReplay moves the replay on screen by delta steps (the arrow keys).
export function stepReplay(delta) {
  const r = app.replay;
  if (!r || !r.data) return false;
  loadReplay(Math.max(0, r.data.step + delta));
  return true;
}

async function loadReplay(step) {
  const r = app.replay;
  const q = new URLSearchParams();
  if (step !== null && step !== undefined) q.set('step', step);
  q.set('seat', r.seat);
  try {
    r.data = await api('GET', `/api/records/${r.id}/replay?${q}`);
    r.step = r.data.step;
    r.error = null;
  } catch (err) {
    r.error = err;
    showError(err);
  }
  renderReplay();
}

export function renderReplay() {
  const main = document.getElementById('app');
  const r = app.replay;
  if (!r.data && !r.error) { replace(main, h('div', { class: 'panel' }, t('table.loading'))); loadReplay(0); return; }
  if (!r.data) { replace(main, h('div', { class: 'panel' }, h('p', {}, t('replay.unavailable')), h('a', { href: '#/' }, t('table.back')))); return; }
  const d = r.data;
  const tb = tableData(d.table);
  const v = d.view || {};
  // Every view starts with the same header (game.Header): players, to_act…
  const n = v.players || 0;
  const seats = [];
  const summary = tb.summary;
  const names = r.names || [];
  for (let s = 0; s < n; s++) seats.push({ seat: s, name: names[s] || (summary && summary.seats && summary.seats[s] && summary.seats[s].name) || '', kind: 'replay', connected: true });
  const st = { table: d.table, game: d.game, seat: d.seat, view: v, legal: [], to_act: v.to_act || [], seats, status: d.result ? 'finished' : 'playing', result: d.result, options: v.options || {} };
  const mod = game(d.game);
  const ctx = ctxFor(st, tb, true, renderReplay);
  const g = renderGame(mod, ctx);
  const stepTo = (s) => loadReplay(Math.max(0, Math.min(d.steps, s)));
  const seatSel = h('select', { 'aria-label': t('replay.seat'), 'data-testid': 'replay-seat', onchange: (e) => { r.seat = +e.target.value; loadReplay(r.step); } },
    h('option', { value: -1, selected: r.seat === -1 }, t('replay.spectator')),
    seats.map((s) => h('option', { value: s.seat, selected: r.seat === s.seat }, t('seat.n', { n: s.seat + 1 }))));
  const entry = d.entry ? (d.entry.move ? `${seatName(ctx, d.entry.seat)}: ${describeMove(d.game, d.entry.move)}` : t('replay.chance', { what: d.entry.chance })) : t('replay.start');
  const bar = h('div', { class: 'controls', role: 'toolbar', 'aria-label': t('replay.controls') },
    h('button', { class: 'btn small', type: 'button', 'data-testid': 'replay-first', 'data-key': 'rf', onclick: () => stepTo(0) }, '« ', t('replay.first')),
    h('button', { class: 'btn small', type: 'button', 'data-testid': 'replay-prev', 'data-key': 'rp', onclick: () => stepTo(d.step - 1) }, '◀ ', t('replay.prev')),
    h('span', { class: 'badge', 'data-testid': 'replay-step' }, t('replay.step', { step: d.step, steps: d.steps })),
    h('button', { class: 'btn small', type: 'button', 'data-testid': 'replay-next', 'data-key': 'rn', onclick: () => stepTo(d.step + 1) }, t('replay.next'), ' ▶'),
    h('button', { class: 'btn small', type: 'button', 'data-testid': 'replay-last', 'data-key': 'rl', onclick: () => stepTo(d.steps) }, t('replay.last'), ' »'),
    seatSel);
  const felt = h('section', { class: 'felt', 'aria-label': t('replay.title'), 'data-testid': 'replay', 'data-game': d.game },
    h('div', { class: 'table-head' }, h('h2', {}, t('replay.title'), ' — ', gameTitle(d.game)), h('a', { class: 'btn small secondary', href: '#/' }, t('table.back'))),
    bar,
    h('div', { class: 'status', 'data-testid': 'replay-entry' }, entry),
    h('div', { class: 'opponents' }, seats.map((s) => renderSeat(ctx, s, mod))),
    g.center, h('div', { class: 'status' }, g.status || ''), g.hand || null);
  const side = h('aside', { class: 'side' },
    h('section', { class: 'panel scores' }, h('h3', {}, t('table.scores')), mod && mod.scores ? mod.scores(ctx) : null),
    helpPanel(d.game, tb.ui, renderReplay));
  replace(main, h('div', { class: 'tablepage' }, felt, side));
  if (!r.names) {
    r.names = [];
    api('GET', '/api/records/' + r.id).then((txt) => {
      const names = [];
      for (const m of String(txt).matchAll(/^\[Seat(\d+) "([^"]*)"\]/gm)) names[+m[1]] = m[2];
      r.names = names;
      renderReplay();
    }).catch(() => {});
  }
}
