// The table: seats, the game's own part (from its module), scores, rules
// and tips, the hint, the waiting room and the final scores.
import { h, replace } from '../dom.js';
import { t, renderRich } from '../i18n.js';
import { seatName, cardEl } from '../util.js';
import { app, send, go, onRoute, tableData, mainState, levels, joinTable, toast } from '../app.js';
import { game, gameTitle, helpText, describeMove } from '../games.js';

// ctxFor is what a game module's functions get: the state and view, the
// legal moves (none when read-only), and how to move and re-render.
export function ctxFor(st, tb, readonly, rerender) {
  return {
    state: st, view: st.view || {}, legal: readonly ? [] : (st.legal || []), seat: st.seat, seats: st.seats || [],
    toAct: st.to_act || [], options: st.options || {}, game: st.game, ui: tb.ui, readonly,
    result: st.result, status: st.status,
    move: (text) => sendMove(st, text),
    rerender,
    hint: tb.ui.hint && tb.ui.hint.seat === st.seat ? bestHint(tb.ui.hint) : null,
  };
}

function bestHint(hm) {
  const r = [...(hm.ratings || [])];
  if (!r.length) return null;
  r.sort((a, b) => (b.value - a.value) || ((b.visits || 0) - (a.visits || 0)));
  return r[0].move;
}

// sendMove sends one move; until the server answers and the next state
// arrives, further moves are ignored (no double plays from a double click).
function sendMove(st, text) {
  const msg = { type: 'move', table: st.table, move: text };
  const tb = tableData(st.table);
  if (tb.ui.pending && Date.now() - tb.ui.pending.at < 5000) return;
  const mySeats = [...tb.states.keys()].filter((s) => s >= 0);
  if (mySeats.length > 1) msg.seat = st.seat;
  tb.ui.hint = null;
  tb.ui.pending = { seq: st.seq, at: Date.now() };
  send(msg, (ans) => {
    if (ans.type === 'ack') tb.ui.sel = [];
    else tb.ui.pending = null;
  });
}

// renderGame runs the game module's render, showing an error in its place
// rather than breaking the page.
export function renderGame(mod, ctx) {
  try {
    return mod ? mod.render(ctx) : { center: h('pre', {}, JSON.stringify(ctx.view, null, 1)) };
  } catch (err) {
    console.error(err);
    return { center: h('pre', { class: 'panel' }, String(err && err.stack || err)) };
  }
}

export function renderTable() {
  const main = document.getElementById('app');
  const id = app.route.id;
  const tb = tableData(id);
  const st = mainState(tb);
  if (!st) {
    replace(main, h('div', { class: 'panel', 'data-testid': tb.ui.missing ? 'table-missing' : 'table-loading' }, h('p', {}, tb.ui.missing ? t('table.no_table') : t('table.loading')),
      h('a', { href: '#/' }, t('table.back'))));
    return;
  }
  const mod = game(st.game);
  const ctx = ctxFor(st, tb, false, renderTable);
  const g = renderGame(mod, ctx);
  if (st.status === 'open') {
    g.status = t('table.waiting_short');
    g.sub = '';
    g.badges = null;
  }
  const seatsBox = h('div', { class: 'opponents', 'data-testid': 'seats' },
    (st.seats || []).map((s) => renderSeat(ctx, s, mod)));
  const head = h('div', { class: 'table-head' },
    h('h2', {}, gameTitle(st.game), ' ', h('span', { class: 'badge', 'data-testid': 'table-status' }, t('status.' + st.status))),
    h('div', { class: 'row' },
      st.seat < 0 ? h('span', { class: 'badge', 'data-testid': 'spectator-badge' }, t('table.spectator')) : null,
      g.badges || null,
      st.status === 'playing' && st.seat >= 0 ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'hint', onclick: () => send({ type: 'hint', table: id, seat: st.seat }) }, t('table.hint')) : null,
      st.status === 'finished' ? h('a', { class: 'btn small secondary', href: '#/replay/' + id, 'data-testid': 'open-replay' }, t('table.replay')) : null,
      st.seat >= 0 && st.status !== 'finished' ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'leave', onclick: () => { send({ type: 'leave', table: id }); go('#/'); } }, t('table.leave')) : null,
      h('a', { class: 'btn small secondary', href: '#/', 'data-testid': 'back-lobby' }, t('table.back'))));
  const statusLine = h('div', { class: 'status', 'data-testid': 'status', 'aria-live': 'polite' }, g.status || '', g.sub ? h('span', { class: 'sub' }, g.sub) : null);
  const hintBox = ctx.hint ? h('div', { class: 'offer', 'data-testid': 'hint-text', role: 'status' }, t('table.hint_is', { move: describeMove(st.game, ctx.hint) })) : null;
  const felt = h('section', { class: 'felt', 'aria-label': t('table.table'), 'data-testid': 'felt', 'data-game': st.game, 'data-seq': st.seq, 'data-table': st.table, 'data-seat': st.seat, 'data-status': st.status },
    head,
    st.status === 'open' ? renderWaiting(ctx, tb) : null,
    seatsBox, g.center, statusLine, hintBox, g.hand || null);
  const side = h('aside', { class: 'side' },
    h('section', { class: 'panel scores', 'aria-labelledby': 'scores-h' }, h('h3', { id: 'scores-h' }, t('table.scores')), mod && mod.scores ? mod.scores(ctx) : null),
    g.log ? h('section', { class: 'panel' }, h('h3', {}, t('table.last_moves')), g.log) : null,
    helpPanel(st.game, tb.ui, renderTable));
  replace(main, h('div', { class: 'tablepage' }, felt, side),
    st.status === 'finished' && st.result && !tb.ui.closedFinal ? finalDialog(ctx, tb) : null);
  startClock();
}

export function renderSeat(ctx, s, mod) {
  const turn = (ctx.toAct || []).includes(s.seat);
  const info = mod && mod.seatInfo ? mod.seatInfo(ctx, s.seat) : null;
  const clock = ctx.state.clock && ctx.state.clock.remaining && ctx.state.clock.remaining[String(s.seat)] !== undefined && turn
    ? h('span', { class: 'badge', 'data-clock': ctx.state.clock.remaining[String(s.seat)], 'data-testid': 'clock-' + s.seat }, '') : null;
  return h('div', {
    class: 'seat' + (turn ? ' turn' : '') + (s.seat === ctx.seat ? ' me' : ''), 'data-testid': 'seat-' + s.seat,
    'aria-label': seatName(ctx, s.seat) + (turn ? ' — ' + t('table.to_act') : ''),
  },
  h('div', { class: 'name' }, s.kind === 'empty' ? t('table.empty_seat') : seatName(ctx, s.seat),
    s.away ? h('span', { class: 'badge' }, t('table.away')) : null,
    s.kind === 'human' && !s.connected ? h('span', { class: 'badge' }, t('table.offline')) : null),
  info ? h('div', { class: 'meta' }, info) : null,
  backs(ctx, s.seat),
  turn ? h('div', { class: 'meta' }, t('table.to_act'), ' ', clock) : null);
}

function backs(ctx, seat) {
  const sizes = ctx.view.hand_sizes || [];
  const n = sizes[seat] || 0;
  if (seat === ctx.seat || !n) return null;
  const row = h('div', { class: 'backs', 'aria-hidden': 'true' });
  for (let i = 0; i < Math.min(n, 12); i++) row.appendChild(cardEl('back', {}));
  return row;
}

function renderWaiting(ctx, tb) {
  const st = ctx.state;
  const mine = (st.seats || []).some((s) => s.player && app.me && s.player === app.me.player);
  const owner = tb.summary && app.me && tb.summary.owner === app.me.player;
  const inviteCode = app.invites.get(st.table);
  const link = inviteCode ? `${location.origin}/?table=${st.table}&invite=${inviteCode}` : `${location.origin}/?table=${st.table}`;
  const level = h('select', { 'aria-label': t('lobby.bot_level'), 'data-testid': 'add-bot-level' }, levels().map((l) => h('option', { value: l }, t('level.' + l))));
  return h('div', { class: 'offer', 'data-testid': 'waiting' },
    h('p', {}, t('table.waiting')),
    h('p', { class: 'row' }, t('table.invite_link'), ' ', h('input', { readonly: true, value: link, 'data-testid': 'invite-link', 'aria-label': t('table.invite_link'), size: 48, onfocus: (e) => e.target.select() }),
      h('button', {
        class: 'btn small secondary', type: 'button', 'data-testid': 'copy-invite',
        onclick: async (e) => {
          try { await navigator.clipboard.writeText(link); } catch { const i = e.target.parentNode.querySelector('input'); i.select(); document.execCommand && document.execCommand('copy'); }
          toast(t('table.copied'));
        },
      }, t('table.copy'))),
    h('div', { class: 'row' }, (st.seats || []).filter((s) => s.kind === 'empty').map((s) => [
      !mine ? h('button', { class: 'btn small', type: 'button', 'data-testid': 'sit-' + s.seat, onclick: () => joinTable(st.table, s.seat) }, t('table.sit', { n: s.seat + 1 })) : null,
      owner ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'add-bot-' + s.seat, onclick: () => send({ type: 'add_bot', table: st.table, seat: s.seat, level: level.value }) }, t('table.add_bot', { n: s.seat + 1 })) : null,
    ]), owner ? level : null),
    owner ? h('div', { class: 'row' }, (st.seats || []).filter((s) => s.kind === 'bot').map((s) => h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'remove-bot-' + s.seat, onclick: () => send({ type: 'remove_bot', table: st.table, seat: s.seat }) }, t('table.remove_bot', { n: s.seat + 1 })))) : null);
}

function finalDialog(ctx, tb) {
  const r = ctx.result;
  const n = (r.totals || []).length;
  const winners = r.winners || [];
  const rows = [];
  for (let s = 0; s < n; s++) rows.push(s);
  rows.sort((a, b) => (r.higher_wins ? r.totals[b] - r.totals[a] : r.totals[a] - r.totals[b]));
  const mod = game(ctx.game);
  const close = () => { tb.ui.closedFinal = true; renderTable(); };
  const dlg = h('div', { class: 'overlay', onkeydown: (e) => { if (e.key === 'Escape') close(); } },
    h('div', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'final-h', 'data-testid': 'final-scores' },
      h('h2', { id: 'final-h' }, t('final.title')),
      h('p', { class: 'winner-line', 'data-testid': 'final-winners' }, winners.length > 1
        ? t('final.winners', { names: winners.map((w) => seatName(ctx, w)).join(', ') })
        : t('final.winner', { name: seatName(ctx, winners[0]) })),
      h('table', { class: 'list' },
        h('thead', {}, h('tr', {}, h('th', {}, t('final.place')), h('th', {}, t('final.player')), h('th', {}, t('final.total')))),
        h('tbody', {}, rows.map((s, i) => h('tr', { 'data-testid': 'final-row', 'data-seat': s },
          h('td', {}, String(i + 1)), h('td', {}, seatName(ctx, s), winners.includes(s) ? h('span', { class: 'badge gold', style: 'margin-left:.4rem' }, t('final.winner_badge')) : null),
          h('td', { 'data-testid': 'final-total-' + s }, String(r.totals[s])))))),
      mod && mod.finalExtra ? mod.finalExtra(ctx) : null,
      h('div', { class: 'controls' },
        h('a', { class: 'btn', href: '#/replay/' + ctx.state.table, 'data-testid': 'final-replay' }, t('table.replay')),
        h('button', { class: 'btn secondary', type: 'button', 'data-testid': 'final-close', onclick: close }, t('final.close')),
        h('a', { class: 'btn secondary', href: '#/', 'data-testid': 'final-lobby' }, t('table.back')))));
  setTimeout(() => { const b = dlg.querySelector('[data-testid=final-replay]'); if (b && !dlg.contains(document.activeElement)) b.focus(); }, 0);
  return dlg;
}

// helpPanel shows the game's rules and tips in tabs; rerender redraws the
// page after a tab is chosen.
export function helpPanel(name, ui, rerender) {
  const tab = ui.helpTab || 'rules';
  const mk = (which) => h('button', {
    type: 'button', role: 'tab', 'aria-selected': String(tab === which), id: 'tab-' + which, 'data-testid': 'tab-' + which,
    'aria-controls': 'help-body', onclick: () => { ui.helpTab = which; rerender(); },
  }, t('help.' + which));
  return h('section', { class: 'panel', 'aria-label': t('help.title') },
    h('div', { class: 'tabs', role: 'tablist' }, mk('rules'), mk('tips')),
    h('div', { id: 'help-body', role: 'tabpanel', 'aria-labelledby': 'tab-' + tab, 'data-testid': 'help-' + tab }, renderRich(helpText(name, tab))),
    h('p', { class: 'meta keys' }, t('help.keys')));
}

function startClock() {
  if (app.clockTimer) return;
  app.clockTimer = setInterval(() => {
    const tb = onRoute('table') ? app.tables.get(app.route.id) : null;
    for (const b of document.querySelectorAll('[data-clock]')) {
      const left = Math.max(0, +b.dataset.clock - (Date.now() - (tb ? tb.received : Date.now())));
      b.textContent = Math.ceil(left / 1000) + ' s';
    }
  }, 500);
}
