// 500 Rum: the table, the score sheet and the moves in words.
import { h } from '../dom.js';
import { t, cardName } from '../i18n.js';
import { cardEl, seatName, sameCards } from '../util.js';
import { sortCards } from '../cards.js';
import { register } from '../games.js';

// The view (docs/games/rum500.md): pile bottom → top, stock a size, melds
// with their number, cards and the seat credited for each card.
function pile(v) { return v.pile || []; }
function stockSize(v) { return v.stock || 0; }
function melds(v) { return v.melds || []; }
function target(ctx) { return (ctx.view.options && ctx.view.options.target) || ctx.options.target || 500; }
// The end of a 13-card run an ace goes on, in a lay-off with a choice.
const END = { low: () => t('rum500.low'), high: () => t('rum500.high') };
const endName = (e) => (END[e] ? END[e]() : e);

function render(ctx) {
  const v = ctx.view;
  const ui = ctx.ui;
  const me = ctx.seat;
  const legal = ctx.legal;
  ui.sel = (ui.sel || []).filter((c) => (v.hand || []).includes(c));
  const n = v.players;
  const hintSet = new Set(ctx.hint ? ctx.hint.split(' ').filter((x) => /^(\d+|[AJQK]|10)[SHDC]$|^JK$/.test(x)) : []);

  // Stock and discard pile, spread.
  const canDraw = legal.includes('draw');
  const p = pile(v);
  const takeMoves = legal.filter((m) => m.startsWith('take '));
  const takeable = new Set(takeMoves.map((m) => m.split(' ')[1]));
  const stock = h('div', { class: 'stock', 'data-testid': 'stock' },
    cardEl('back', {
      button: true, disabled: !canDraw, cls: canDraw ? 'playable' : '', testid: 'draw-stock', key: 'stock',
      label: t('rum500.draw_stock', { n: stockSize(v) }), onclick: canDraw ? () => ctx.move('draw') : undefined,
    }),
    h('span', {}, t('rum500.stock_n', { n: stockSize(v) })));
  const pileRow = h('div', { class: 'pile-spread', 'data-testid': 'pile', role: 'group', 'aria-label': t('rum500.pile') });
  p.forEach((c, i) => {
    const upper = p.slice(i + 1).includes(c);
    const ok = takeable.has(c) && !upper;
    const above = p.length - 1 - i;
    pileRow.appendChild(cardEl(c, {
      button: true, size: 'small', testid: 'pile-card', key: 'p' + i, disabled: !ok,
      cls: (ui.pileSel === i ? 'selected ' : '') + (ok ? 'playable' : ''),
      label: cardName(c) + (above ? ' — ' + t('rum500.above_n', { n: above }) : '') + (ok ? '' : ''),
      onclick: ok ? () => { ui.pileSel = ui.pileSel === i ? null : i; ctx.rerender(); } : undefined,
    }));
  });
  const center = h('div', { class: 'center', 'data-testid': 'center' },
    stock,
    h('div', {}, h('div', { class: 'meta' }, t('rum500.pile'), ` (${p.length})`), pileRow));

  // The offer for a card picked deep in the pile.
  if (ui.pileSel !== null && ui.pileSel !== undefined && p[ui.pileSel]) {
    const x = p[ui.pileSel];
    const along = p.slice(ui.pileSel + 1);
    const offers = takeMoves.filter((m) => m.split(' ')[1] === x);
    center.appendChild(h('div', { class: 'offer', 'data-testid': 'take-offer' },
      h('p', {}, t('rum500.take_x', { card: cardName(x) }), along.length ? ' ' + t('rum500.comes_along', { cards: along.map(cardName).join(', ') }) : ''),
      h('div', { class: 'row' }, along.map((c) => cardEl(c, { size: 'tiny' }))),
      h('div', {}, offers.map((m, i) => h('button', { class: 'btn small', type: 'button', 'data-testid': 'take-option', 'data-key': 'to' + i, 'data-move': m, onclick: () => { ui.pileSel = null; ctx.move(m); } }, describe(m)))),
      h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'take-cancel', onclick: () => { ui.pileSel = null; ctx.rerender(); } }, t('table.cancel'))));
  }

  // Melds on the table, with who placed each card.
  const layoffs = ui.sel.length === 1 ? legal.filter((m) => m.startsWith('layoff ' + ui.sel[0] + ' ')) : [];
  const meldBox = h('div', { class: 'melds', 'data-testid': 'melds', 'aria-label': t('rum500.melds') });
  melds(v).forEach((m) => {
    const num = m.number;
    const owners = m.owners || [];
    const targets = layoffs.filter((x) => x.split(' ')[2] === String(num));
    const cards = m.cards || [];
    meldBox.appendChild(h('div', { class: 'meld', 'data-testid': 'meld-' + num, role: 'group', 'aria-label': t('rum500.meld_n', { n: num }) },
      h('div', { class: 'meld-title' }, t('rum500.meld_n', { n: num })),
      h('div', { class: 'meld-cards' }, cards.map((c, j) => cardEl(c, {
        size: 'small', label: cardName(c) + (owners[j] !== undefined ? ' — ' + seatName(ctx, owners[j]) : ''),
        who: owners[j] !== undefined ? h('span', { class: 'own oc-' + owners[j], 'aria-hidden': 'true' }, String(owners[j] + 1)) : null,
      }))),
      targets.map((tm) => h('button', { class: 'btn small', type: 'button', 'data-testid': 'layoff-' + num + (tm.split(' ')[3] ? '-' + tm.split(' ')[3] : ''), onclick: () => ctx.move(tm) },
        t('rum500.layoff_here') + (tm.split(' ')[3] ? ' (' + endName(tm.split(' ')[3]) + ')' : '')))));
  });
  if (!melds(v).length) meldBox.appendChild(h('p', { class: 'meta' }, t('rum500.no_melds')));
  else {
    const legend = [];
    for (let s = 0; s < n; s++) legend.push(h('span', { class: 'legend-item' }, h('span', { class: 'own oc-' + s }, String(s + 1)), ' ', seatName(ctx, s)));
    meldBox.prepend(h('div', { class: 'legend', 'data-testid': 'meld-legend' }, t('rum500.whose'), ' ', legend));
  }
  const table = h('div', {}, center, meldBox);

  // Status.
  const turn = (ctx.toAct || [])[0];
  let status = '';
  let sub = '';
  if (ctx.status === 'finished' || v.phase === 'over') status = t('table.game_over');
  else if (turn === undefined) status = t('table.dealing');
  else if (turn === me) {
    status = t('table.your_turn');
    if (canDraw || takeMoves.length) sub = t('rum500.step_draw');
    else if (legal.includes('decline')) sub = t('rum500.step_decline');
    else sub = t('rum500.step_meld');
  } else status = t('table.turn_of', { name: seatName(ctx, turn) });
  sub = [sub, t('rum500.target', { n: target(ctx) })].filter(Boolean).join(' · ');

  // Hand and actions.
  let hand = null;
  if (me >= 0 && v.hand) {
    const cards = sortCards(v.hand);
    const row = h('div', { class: 'hand' + (cards.length > 10 ? ' many' : ''), 'data-testid': 'hand', role: 'group', 'aria-label': t('table.your_hand') });
    const canAct = legal.some((m) => /^(meld|layoff|discard) /.test(m));
    cards.forEach((c, i) => {
      const sel = ui.sel.includes(c);
      row.appendChild(cardEl(c, {
        testid: 'hand-card', key: 'h' + i + c, pressed: sel, disabled: !canAct,
        cls: (sel ? 'selected' : '') + (hintSet.has(c) ? ' playable' : ''),
        onclick: () => {
          ui.sel = sel ? ui.sel.filter((x) => x !== c) : [...ui.sel, c];
          ctx.rerender();
        },
      }));
    });
    const meldMove = legal.find((m) => m.startsWith('meld ') && ui.sel.length >= 3 && sameCards(m.split(' ').slice(1), ui.sel));
    const discardMove = ui.sel.length === 1 && legal.includes('discard ' + ui.sel[0]) ? 'discard ' + ui.sel[0] : null;
    const suggestions = legal.filter((m) => m.startsWith('meld ')).slice(0, 6);
    const controls = h('div', { class: 'controls' },
      h('button', { class: 'btn', type: 'button', 'data-testid': 'meld-selected', disabled: !meldMove, onclick: () => meldMove && ctx.move(meldMove) }, t('rum500.meld_selected')),
      h('button', { class: 'btn', type: 'button', 'data-testid': 'discard', disabled: !discardMove, onclick: () => discardMove && ctx.move(discardMove) }, t('rum500.discard')),
      legal.includes('decline') ? h('button', { class: 'btn secondary', type: 'button', 'data-testid': 'decline', onclick: () => ctx.move('decline') }, t('rum500.decline')) : null,
      h('button', { class: 'btn secondary', type: 'button', 'data-testid': 'clear', disabled: !ui.sel.length, onclick: () => { ui.sel = []; ctx.rerender(); } }, t('table.clear')));
    const helpLine = ui.sel.length === 1 && layoffs.length ? h('p', { class: 'meta' }, t('rum500.pick_meld')) : null;
    hand = h('section', { class: 'hand-area', 'aria-label': t('table.your_hand') },
      h('h3', {}, t('table.your_hand'), ` (${cards.length})`), row, controls, helpLine,
      suggestions.length ? h('div', { class: 'offer', 'data-testid': 'meld-suggestions' }, h('span', {}, t('rum500.can_meld'), ' '),
        suggestions.map((m, i) => h('button', { class: 'btn small', type: 'button', 'data-testid': 'meld-option', 'data-key': 'mo' + i, 'data-move': m, onclick: () => ctx.move(m) }, m.split(' ').slice(1).map(cardName).join(' · ')))) : null);
  }
  const moves = v.moves || [];
  const log = moves.length ? h('ol', { class: 'log', 'data-testid': 'log' }, moves.slice(-8).map((m) => {
    const i = m.indexOf(' ');
    return h('li', {}, `${seatName(ctx, +m.slice(0, i))}: ${describe(m.slice(i + 1))}`);
  })) : null;
  let ended = null;
  if (v.went_out !== undefined && v.went_out >= 0 && (v.phase === 'over' || ctx.status === 'finished')) {
    ended = h('p', { class: 'offer', 'data-testid': 'went-out' }, t('rum500.went_out', { name: seatName(ctx, v.went_out) }));
  }
  if (ended) table.appendChild(ended);
  const rounds = v.round_scores || [];
  const over = v.phase === 'over' || ctx.status === 'finished';
  if (rounds.length && !over && ui.seenHands !== rounds.length) {
    const last = rounds[rounds.length - 1];
    table.appendChild(h('div', { class: 'offer', 'data-testid': 'hand-result' },
      h('strong', {}, t('rum500.hand_result', { n: rounds.length })), ' ',
      last.map((x, s) => `${seatName(ctx, s)} ${x > 0 ? '+' : ''}${x}`).join(' · '), ' ',
      h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'dismiss-hand', onclick: () => { ui.seenHands = rounds.length; ctx.rerender(); } }, t('final.close'))));
  }
  if (over && Array.isArray(v.shown_hands) && v.shown_hands.some((x) => x && x.length)) {
    table.appendChild(h('div', { class: 'offer', 'data-testid': 'shown-hands' },
      h('p', {}, t('rum500.left_in_hands')),
      v.shown_hands.map((cards, s) => (cards && cards.length ? h('div', { class: 'row' }, h('span', {}, seatName(ctx, s) + ':'), sortCards(cards).map((c) => cardEl(c, { size: 'tiny' }))) : null))));
  }
  return { center: table, hand, status, sub, log, badges: [h('span', { class: 'badge', 'data-testid': 'hand-no' }, t('rum500.hand_n', { n: v.round || 1 }))] };
}

function initial(ctx, s) {
  const name = seatName(ctx, s);
  return name.length > 10 ? name.slice(0, 9) + '…' : name;
}

function seatInfo(ctx, s) {
  const v = ctx.view;
  const parts = [];
  // hand_sizes lists zeros before the first deal: no sizes then.
  if (v.round > 0 && (v.hand_sizes || [])[s] !== undefined) parts.push(t('table.cards_n', { n: v.hand_sizes[s] }));
  const onTable = v.table_points;
  if (onTable && onTable[s] !== undefined) parts.push(t('rum500.on_table', { n: onTable[s] }));
  if ((v.totals || [])[s] !== undefined) parts.push(t('rum500.total_n', { n: v.totals[s] }));
  if (v.dealer === s) parts.push(t('table.dealer'));
  return parts.join(' · ');
}

function scores(ctx) {
  const v = ctx.view;
  const n = v.players;
  const rounds = v.round_scores || [];
  const running = new Array(n).fill(0);
  const body = rounds.map((r, i) => h('tr', {}, h('td', {}, t('rum500.hand_n', { n: i + 1 })), r.map((x, s) => {
    running[s] += x;
    return h('td', { title: String(running[s]) }, `${x > 0 ? '+' : ''}${x} → ${running[s]}`);
  })));
  const head = [];
  for (let s = 0; s < n; s++) head.push(h('th', {}, seatName(ctx, s)));
  return h('div', {},
    h('p', { class: 'meta' }, t('rum500.target', { n: target(ctx) })),
    h('table', { 'data-testid': 'score-sheet' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), head)),
      h('tbody', {}, body,
        h('tr', { class: 'total' }, h('td', {}, t('final.total')), (v.totals || running).map((x, s) => h('td', { 'data-testid': 'score-total-' + s }, String(x)))))));
}

function finalExtra(ctx) {
  const r = ctx.result;
  if (!r || !(r.winners || []).length) return null;
  const lines = [];
  const pay = ctx.view.settlement;
  if (Array.isArray(pay) && pay.length) {
    for (const p of pay) lines.push(h('li', {}, t('rum500.pays', { from: seatName(ctx, p.from), to: seatName(ctx, p.to), n: p.amount })));
  } else {
    for (const w of r.winners) {
      for (let s = 0; s < r.totals.length; s++) {
        if (r.winners.includes(s)) continue;
        lines.push(h('li', {}, t('rum500.pays', { from: seatName(ctx, s), to: seatName(ctx, w), n: r.totals[w] - r.totals[s] })));
      }
    }
  }
  return h('div', { 'data-testid': 'settlement' }, h('h3', {}, t('rum500.settlement')), h('ul', {}, lines));
}

// describe says a 500 Rum move in words: draw, take (alone, with a meld or
// a lay-off), meld, layoff, discard, decline.
function describe(text) {
  const parts = text.split(' ');
  const cards = (list) => list.map(cardName).join(', ');
  switch (parts[0]) {
    case 'draw': return t('rum500.move.draw');
    case 'decline': return t('rum500.move.decline');
    case 'discard': return t('rum500.move.discard', { card: cardName(parts[1]) });
    case 'meld': return t('rum500.move.meld', { cards: cards(parts.slice(1)) });
    case 'layoff': return t('rum500.move.layoff', { card: cardName(parts[1]), meld: parts[2] });
    case 'take':
      if (parts[2] === 'meld') return t('rum500.move.take_meld', { card: cardName(parts[1]), cards: cards(parts.slice(3)) });
      if (parts[2] === 'layoff') return t('rum500.move.take_layoff', { card: cardName(parts[1]), meld: parts[3] });
      return t('rum500.move.take', { card: cardName(parts[1]) });
    default: return undefined;
  }
}

export default register({
  name: 'rum500',
  icon: 'AS',
  render, seatInfo, scores, finalExtra, describe,
  listOptions: ['target'],
});
