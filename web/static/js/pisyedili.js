// The Pis Yedili table.
import { h } from './dom.js';
import { t, cardName } from './i18n.js';
import { cardEl, seatName, pick, suitIcon, rankOf, describeMove } from './util.js';
import { sortCards } from './cards.js';

function topCard(v) {
  const top = pick(v, 'top', 'top_card');
  if (top) return top;
  const d = pick(v, 'discard', 'pile') || [];
  return d[d.length - 1] || '';
}
function stockSize(v) { const s = pick(v, 'stock_size', 'stock', 'stock_count'); return Array.isArray(s) ? s.length : s || 0; }
function chain(v) {
  const p = v.chain;
  if (!p || !p.count) return null;
  return { kind: p.kind, count: p.count, cards: p.draw || (p.kind === 'joker' ? 10 * p.count : 3 * p.count) };
}

const SPECIAL = { '7': 'pis.eff7', A: 'pis.effA', J: 'pis.effJ', '10': 'pis.eff10', '8': 'pis.eff8', JK: 'pis.effJK' };

function render(ctx) {
  const v = ctx.view;
  const ui = ctx.ui;
  const me = ctx.seat;
  const legal = ctx.legal;
  const n = pick(v, 'players') || (v.hand_sizes || []).length;
  const phase = v.phase;
  const top = topCard(v);
  const activeSuit = pick(v, 'active_suit', 'suit');
  const activeRank = pick(v, 'active_rank', 'rank');
  const ch = chain(v);
  const opening = phase === 'opening';
  const turn = (ctx.toAct || [])[0];

  const badges = [
    h('span', { class: 'badge', 'data-testid': 'hand-no' }, t('pis.hand_no', { n: v.round || 1, of: v.round_count || '?' })),
    opening ? h('span', { class: 'badge gold', 'data-testid': 'opening-badge' }, t('pis.opening_badge')) : null,
  ];

  // Stock, top card, active suit and rank, chain, direction.
  const canDraw = legal.includes('draw');
  const center = h('div', { class: 'center', 'data-testid': 'center' },
    h('div', { class: 'stock', 'data-testid': 'stock' },
      cardEl('back', { button: true, disabled: !canDraw, cls: canDraw ? 'playable' : '', testid: 'draw-stock', key: 'stock', label: t('pis.draw_n', { n: stockSize(v) }), onclick: canDraw ? () => ctx.move('draw') : undefined }),
      h('span', {}, t('rum.stock_n', { n: stockSize(v) }))),
    h('div', { class: 'stock pile-top', 'data-testid': 'top-card' },
      h('div', { class: 'pile-fan' },
        (v.pile || []).slice(-5, -1).map((c) => cardEl(c, { cls: 'under' })),
        top ? cardEl(top, { cls: 'top' }) : h('div', { class: 'card' })),
      h('span', {}, t('pis.top'))),
    h('div', { class: 'offer', 'data-testid': 'active' },
      activeSuit ? h('div', { 'data-testid': 'active-suit', 'data-suit': activeSuit }, t('pis.active_suit'), ' ', suitIcon(activeSuit, 22), ' ', t('suit.' + activeSuit)) : null,
      activeRank ? h('div', { 'data-testid': 'active-rank' }, t('pis.active_rank'), ' ', h('strong', {}, activeRank === 'JK' ? t('card.joker') : (t('rank.' + activeRank) !== 'rank.' + activeRank ? t('rank.' + activeRank) : activeRank))) : null,
      ch ? h('div', { class: 'chain', 'data-testid': 'chain' }, h('span', { class: 'badge red' }, t('pis.chain', { n: ch.cards, k: ch.count, kind: t('pis.kind_' + (ch.kind || 'seven')) }))) : null,
      turn !== undefined ? h('div', { class: 'dir', 'data-testid': 'turn-info' }, t('table.turn_of', { name: seatName(ctx, turn) }), nextInfo(ctx, v, n, turn)) : null));

  if (opening) {
    center.appendChild(h('div', { class: 'offer', 'data-testid': 'opening' }, h('strong', {}, t('pis.opening_title')), ' ', t('pis.opening_text')));
  }
  const fin = v.finished || [];
  const over = phase === 'hand_over' || phase === 'over' || ctx.status === 'finished';
  if (v.ending && phase === 'hand_over') {
    center.appendChild(handSummary(ctx, v.ending, n, v.revealed));
  } else if (fin.length && (over || ui.seenHands !== fin.length)) {
    center.appendChild(h('div', {}, handSummary(ctx, fin[fin.length - 1], n),
      over ? null : h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'dismiss-hand', onclick: () => { ui.seenHands = fin.length; ctx.rerender(); } }, t('final.close'))));
  }
  if (v.drawing && v.drawing.left > 0) {
    center.appendChild(h('div', { class: 'offer', 'data-testid': 'drawing' }, t('pis.drawing', { name: seatName(ctx, v.drawing.seat), n: v.drawing.left })));
  }

  // Status.
  let status = '';
  let sub = '';
  if (ctx.status === 'finished' || phase === 'over') status = t('table.game_over');
  else if (turn === undefined) status = t('table.dealing');
  else {
    status = turn === me ? t('table.your_turn') : t('table.turn_of', { name: seatName(ctx, turn) });
    if (turn === me) {
      if (ch) sub = t('pis.must_answer', { n: ch.cards });
      else if (opening) sub = t('pis.must_club');
      else if (phase === 'after_draw') sub = t('pis.after_draw');
      else if (phase === 'ace_continue') sub = t('pis.ace_again');
    }
  }

  // Hand.
  let hand = null;
  if (me >= 0 && v.hand) {
    const plays = legal.filter((m) => m.startsWith('play '));
    const playable = new Set(plays.map((m) => m.split(' ')[1]));
    const hinted = ctx.hint && ctx.hint.startsWith('play ') ? ctx.hint.split(' ')[1] : null;
    const cards = sortCards(v.hand);
    const row = h('div', { class: 'hand' + (cards.length > 10 ? ' many' : ''), 'data-testid': 'hand', role: 'group', 'aria-label': t('table.your_hand') });
    cards.forEach((c, i) => {
      const ok = playable.has(c);
      const eff = SPECIAL[rankOf(c)];
      row.appendChild(cardEl(c, {
        testid: 'hand-card', key: 'h' + i + c, disabled: !ok,
        cls: ok ? (c === hinted ? 'playable selected' : 'playable') : (plays.length || turn === me ? 'illegal' : ''),
        label: cardName(c) + (eff && !opening ? ' — ' + t(eff) : '') + (ok ? '' : (turn === me ? ' — ' + t('table.not_playable') : '')),
        onclick: () => {
          const withSuit = plays.filter((m) => m.split(' ')[1] === c && m.split(' ').length > 2);
          if (withSuit.length) { ui.jack = c; ctx.rerender(); } else ctx.move('play ' + c);
        },
      }));
    });
    const btn = (move, label, testid) => legal.includes(move)
      ? h('button', { class: 'btn' + (move === 'penalty' ? ' danger' : ''), type: 'button', 'data-testid': testid, onclick: () => ctx.move(move) }, label) : null;
    const controls = h('div', { class: 'controls' },
      btn('draw', t('pis.draw'), 'draw'),
      btn('pass', t('pis.pass'), 'pass'),
      btn('penalty', ch ? t('pis.penalty_n', { n: ch.cards }) : t('pis.penalty'), 'penalty'),
      btn('end', t('pis.end'), 'end-turn'));
    let pickSuit = null;
    if (ui.jack && playable.has(ui.jack)) {
      const jackMoves = plays.filter((m) => m.split(' ')[1] === ui.jack && m.split(' ').length > 2);
      pickSuit = h('div', { class: 'offer', role: 'dialog', 'aria-label': t('pis.choose_suit'), 'data-testid': 'suit-picker' },
        h('p', {}, t('pis.choose_suit_for', { card: cardName(ui.jack) })),
        h('div', { class: 'suitpick' }, jackMoves.map((m) => {
          const s = m.split(' ')[2];
          return h('button', { type: 'button', 'data-testid': 'suit-' + s, 'data-key': 'suit' + s, 'aria-label': t('suit.' + s), title: t('suit.' + s), onclick: () => { ui.jack = null; ctx.move(m); ctx.rerender(); } }, suitIcon(s, 32));
        })),
        h('button', { class: 'btn small secondary', type: 'button', onclick: () => { ui.jack = null; ctx.rerender(); } }, t('table.cancel')));
      setTimeout(() => { const b = document.querySelector('[data-testid=suit-picker] button'); if (b && !b.contains(document.activeElement) && !document.activeElement.closest('[data-testid=suit-picker]')) b.focus(); }, 0);
    } else ui.jack = null;
    hand = h('section', { class: 'hand-area', 'aria-label': t('table.your_hand') }, h('h3', {}, t('table.your_hand'), ` (${cards.length})`), pickSuit, row, controls);
  }
  const log = (pick(v, 'log', 'history', 'moves') || []);
  const logEl = Array.isArray(log) && log.length ? h('ol', { class: 'log', 'data-testid': 'log' }, log.slice(-8).map((e) => h('li', {}, typeof e === 'string' ? e : `${seatName(ctx, e.seat)}: ${describeMove(e.move || '')}`))) : null;
  return { center, hand, status, sub, badges, log: logEl };
}

// nextInfo says why this seat has the turn (8 skip, 10 bounce, ace) and
// where the turn goes after a plain card.
function nextInfo(ctx, v, n, turn) {
  const bits = [];
  const back = (turn - (v.direction === 'counterclockwise' ? -1 : 1) + n) % n;
  switch (v.turn_reason) {
    case 'skip': bits.push(t('pis.skipped', { name: seatName(ctx, back) })); break;
    case 'bounce': bits.push(t('pis.bounced', { name: seatName(ctx, turn) })); break;
    case 'reverse': bits.push(t('pis.reversed')); break;
    case 'ace': bits.push(t('pis.reason_ace')); break;
    default: break;
  }
  if (v.phase !== 'opening' || v.opening_left > 1) {
    const next = (turn + (v.direction === 'counterclockwise' ? -1 : 1) + n) % n;
    bits.push(t('pis.next_is', { name: seatName(ctx, next) }));
  }
  return bits.length ? h('span', { class: 'sub', 'data-testid': 'next-info' }, ' — ' + bits.join(' · ')) : null;
}

function handSummary(ctx, lh, n, revealed) {
  const fin = lh.finisher;
  const draws = lh.end_draws || [];
  const pens = lh.points || [];
  const hands = lh.hands || revealed || [];
  const rows = [];
  for (let s = 0; s < n; s++) {
    rows.push(h('tr', {},
      h('td', {}, seatName(ctx, s)),
      h('td', {}, (draws[s] || []).length ? h('span', { class: 'row' }, draws[s].map((c) => cardEl(c, { size: 'tiny' }))) : '—'),
      h('td', {}, (hands[s] || []).length ? h('span', { class: 'row' }, sortCards(hands[s]).map((c) => cardEl(c, { size: 'tiny' }))) : '—'),
      h('td', { 'data-testid': 'hand-penalty-' + s }, pens[s] !== undefined ? String(pens[s]) : '')));
  }
  return h('div', { class: 'offer', 'data-testid': 'hand-summary', style: 'color:inherit' },
    h('h3', {}, t('pis.hand_n', { n: lh.hand || '' })),
    h('p', {}, fin !== undefined && fin >= 0
      ? t('pis.finished_by', { name: seatName(ctx, fin), card: lh.card ? cardName(lh.card) : '' })
      : t('pis.blocked')),
    h('p', { 'data-testid': 'multiplier' }, t('pis.multiplier', { m: lh.multiplier || 1 })),
    h('table', { class: 'summary' },
      h('thead', {}, h('tr', {}, h('th', {}, t('final.player')), h('th', {}, t('pis.end_draws')), h('th', {}, t('pis.left_in_hand')), h('th', {}, t('pis.penalty_pts')))),
      h('tbody', {}, rows)));
}

function seatInfo(ctx, s) {
  const v = ctx.view;
  const parts = [];
  if ((v.hand_sizes || [])[s] !== undefined) parts.push(t('table.cards_n', { n: v.hand_sizes[s] }));
  if ((v.totals || [])[s] !== undefined) parts.push(t('pis.penalty_total', { n: v.totals[s] }));
  if (v.dealer === s) parts.push(t('table.dealer'));
  return parts.join(' · ');
}

function scores(ctx) {
  const v = ctx.view;
  const n = pick(v, 'players') || (v.totals || []).length;
  const rounds = (ctx.result && ctx.result.rounds) || (v.finished || []).map((f) => f.points || []);
  const head = [];
  for (let s = 0; s < n; s++) head.push(h('th', {}, seatName(ctx, s)));
  return h('div', {},
    h('table', { 'data-testid': 'score-sheet' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), head)),
      h('tbody', {},
        (Array.isArray(rounds) ? rounds : []).map((r, i) => h('tr', {}, h('td', {}, t('pis.hand_n', { n: i + 1 })), (Array.isArray(r) ? r : []).map((x) => h('td', {}, String(x))))),
        h('tr', { class: 'total' }, h('td', {}, t('final.total')), (v.totals || []).map((x, s) => h('td', { 'data-testid': 'score-total-' + s }, String(x)))))),
    h('p', { class: 'meta' }, t('pis.lower_wins')));
}

export default { render, seatInfo, scores };
