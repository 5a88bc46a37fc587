// Papayoo: the table, the score sheet and the moves in words.
import { h } from '../dom.js';
import { t, cardName } from '../i18n.js';
import { cardEl, suitIcon, suitOf, seatName } from '../util.js';
import { sortCards } from '../cards.js';
import { register } from '../games.js';

// The seven that is the Papayoo this round is drawn marked.
const MARK = 'PAPAYOO 40';
const mark = (v, c) => (c === v.papayoo ? MARK : '');

function legalPlays(ctx) {
  return new Set(ctx.legal.filter((m) => m.startsWith('play ')).map((m) => m.slice(5)));
}

function hintCards(ctx) {
  if (!ctx.hint) return new Set();
  return new Set(ctx.hint.split(' ').slice(1));
}

function render(ctx) {
  const v = ctx.view;
  const ui = ctx.ui;
  const n = v.players;
  const me = ctx.seat;
  if (ui.round !== v.round) { ui.round = v.round; ui.sel = []; }
  ui.sel = ui.sel || [];
  const phase = v.phase;
  const canPass = phase === 'pass' && me >= 0 && !(v.passed || [])[me] && !ctx.readonly;
  const plays = legalPlays(ctx);
  const hinted = hintCards(ctx);

  const badges = [
    h('span', { class: 'badge', 'data-testid': 'round' }, t('papayoo.round', { round: v.round || 0, rounds: v.round_count || 0 })),
    v.papayoo ? h('span', { class: 'badge gold', 'data-testid': 'papayoo-badge' }, suitIcon(v.die, 14), ' ', t('papayoo.is', { card: cardName(v.papayoo) })) : null,
  ];

  // The middle of the table.
  const center = h('div', { class: 'center', 'data-testid': 'center' });
  if (v.die) {
    center.appendChild(h('div', { class: 'row', 'data-testid': 'die', 'aria-label': t('papayoo.die', { suit: t('suit.' + v.die) }) },
      h('div', { class: 'die', title: t('papayoo.die', { suit: t('suit.' + v.die) }) }, suitIcon(v.die, 40)),
      cardEl(v.papayoo, { size: 'small', mark: MARK })));
  }
  const trick = v.trick || { cards: [] };
  const last = (v.tricks || [])[(v.tricks || []).length - 1];
  if (trick.cards && trick.cards.length) {
    center.appendChild(h('div', { class: 'trick', 'data-testid': 'trick', 'aria-label': t('papayoo.trick') },
      trick.cards.map((c, i) => cardEl(c, { who: seatName(ctx, (trick.leader + i) % n), mark: mark(v, c) }))));
  } else if (last && phase === 'play') {
    center.appendChild(h('div', { class: 'trick', 'data-testid': 'last-trick', 'aria-label': t('papayoo.last_trick') },
      last.cards.map((c, i) => cardEl(c, {
        who: seatName(ctx, (last.leader + i) % n), mark: mark(v, c),
        cls: (last.leader + i) % n === last.winner ? 'winner' : '',
      }))));
  }
  if (phase === 'pass') {
    const left = (me + 1) % n;
    if (canPass) {
      center.appendChild(h('div', { class: 'offer', 'data-testid': 'pass-panel' },
        h('p', {}, t('papayoo.pass_choose', { k: v.pass_size, name: seatName(ctx, left) })),
        h('p', {}, t('papayoo.selected', { n: ui.sel.length, k: v.pass_size }))));
    } else if (me >= 0 && (v.my_pass || []).length) {
      center.appendChild(h('div', { class: 'offer', 'data-testid': 'pass-done' },
        h('p', {}, t('papayoo.pass_waiting')),
        h('div', { class: 'row' }, sortCards(v.my_pass).map((c) => cardEl(c, { size: 'tiny' })))));
    }
  }
  if ((v.received || []).length && me >= 0 && (v.tricks || []).length < 2 && phase === 'play') {
    center.appendChild(h('div', { class: 'offer', 'data-testid': 'received' },
      h('p', {}, t('papayoo.received', { name: seatName(ctx, (me - 1 + n) % n) })),
      h('div', { class: 'row' }, sortCards(v.received).map((c) => cardEl(c, { size: 'tiny' }))),
      (v.my_pass || []).length ? h('p', {}, t('papayoo.you_passed'), ' ', sortCards(v.my_pass).map(cardName).join(', ')) : null));
  }
  if (v.round > 1 && (v.tricks || []).length === 0 && (v.round_scores || []).length) {
    const prev = v.round_scores[v.round_scores.length - 1];
    center.appendChild(h('div', { class: 'offer', 'data-testid': 'round-summary' },
      h('strong', {}, t('papayoo.round_summary', { round: v.round_scores.length })), ' ',
      prev.map((p, s) => `${seatName(ctx, s)} ${p}`).join(' · ')));
  }

  // Status line.
  let status = '';
  let sub = '';
  if (phase === 'pass') status = canPass ? t('papayoo.status_pass') : t('papayoo.status_pass_wait');
  else if (phase === 'play') {
    const turn = (ctx.toAct || [])[0];
    status = turn === me ? t('table.your_turn') : t('table.turn_of', { name: seatName(ctx, turn) });
    if (trick.cards && trick.cards.length) sub = t('papayoo.led', { suit: t('suit.' + suitOf(trick.cards[0])) });
    else if (last) sub = t('papayoo.took', { name: seatName(ctx, last.winner), points: last.points });
  } else if (phase === 'over') status = t('table.game_over');
  else status = t('table.dealing');

  // Own hand, sorted by suit with a gap between suits.
  let hand = null;
  if (me >= 0 && v.hand) {
    const cards = sortCards(v.hand);
    const row = h('div', { class: 'hand' + (cards.length > 10 ? ' many' : ''), 'data-testid': 'hand', role: 'group', 'aria-label': t('table.your_hand') });
    let prevSuit = null;
    cards.forEach((c, i) => {
      const s = suitOf(c);
      if (prevSuit && s !== prevSuit) row.appendChild(h('span', { class: 'suit-gap', 'aria-hidden': 'true' }));
      prevSuit = s;
      if (canPass) {
        const sel = ui.sel.includes(c);
        row.appendChild(cardEl(c, {
          testid: 'hand-card', key: 'h' + c, pressed: sel, cls: (sel ? 'selected' : '') + (hinted.has(c) ? ' playable' : ''),
          onclick: () => {
            if (ui.sel.includes(c)) ui.sel = ui.sel.filter((x) => x !== c);
            else if (ui.sel.length < v.pass_size) ui.sel = [...ui.sel, c];
            ctx.rerender();
          },
        }));
      } else {
        const ok = plays.has(c);
        row.appendChild(cardEl(c, {
          testid: 'hand-card', key: 'h' + c, disabled: !ok, mark: mark(v, c),
          cls: ok ? (hinted.has(c) ? 'playable selected' : 'playable') : (phase === 'play' && plays.size ? 'illegal' : ''),
          label: cardName(c) + (ok ? '' : (plays.size ? ' — ' + t('table.not_playable') : '')),
          onclick: () => ctx.move('play ' + c),
        }));
      }
    });
    const controls = canPass ? h('div', { class: 'controls' },
      h('button', {
        class: 'btn', type: 'button', 'data-testid': 'pass-confirm', disabled: ui.sel.length !== v.pass_size,
        onclick: () => { if (ui.sel.length === v.pass_size) ctx.move('pass ' + sortCards(ui.sel).join(' ')); },
      }, t('papayoo.pass_confirm', { n: ui.sel.length, k: v.pass_size })),
      h('button', { class: 'btn secondary', type: 'button', 'data-testid': 'pass-clear', disabled: !ui.sel.length, onclick: () => { ui.sel = []; ctx.rerender(); } }, t('table.clear'))) : null;
    hand = h('section', { class: 'hand-area', 'aria-label': t('table.your_hand') }, h('h3', {}, t('table.your_hand'), ` (${cards.length})`), row, controls);
  }
  return { center, hand, status, sub, badges };
}

function seatInfo(ctx, s) {
  const v = ctx.view;
  const parts = [];
  if ((v.hand_sizes || [])[s] !== undefined) parts.push(t('table.cards_n', { n: v.hand_sizes[s] }));
  if ((v.points || [])[s] !== undefined) parts.push(t('papayoo.points_n', { n: v.points[s] }));
  if (v.phase === 'pass' && (v.passed || [])[s]) parts.push('✓ ' + t('papayoo.passed'));
  if (v.dealer === s) parts.push(t('table.dealer'));
  return parts.join(' · ');
}

function scores(ctx) {
  const v = ctx.view;
  const n = v.players;
  const rounds = v.round_scores || [];
  const cols = [];
  for (let r = 0; r < rounds.length; r++) cols.push(r);
  const live = v.phase === 'play' || v.phase === 'pass' || v.phase === 'die';
  const rows = [];
  for (let s = 0; s < n; s++) {
    rows.push(h('tr', { 'data-testid': 'score-row-' + s },
      h('td', {}, seatName(ctx, s)),
      cols.map((r) => h('td', {}, String(rounds[r][s]))),
      live ? h('td', {}, String((v.points || [])[s] || 0)) : null,
      h('td', { 'data-testid': 'score-total-' + s }, h('strong', {}, String((v.totals || [])[s] || 0)))));
  }
  return h('div', {},
    h('table', {},
      h('thead', {}, h('tr', {}, h('th', {}, t('final.player')), cols.map((r) => h('th', {}, t('table.round_n', { n: r + 1 }))),
        live ? h('th', {}, t('papayoo.now')) : null, h('th', {}, t('final.total')))),
      h('tbody', {}, rows)),
    h('p', { class: 'sr-only' }, t('papayoo.lower_wins')));
}

// describe says a Papayoo move in words: "play 7H", "pass 1S 2S 3S 4S 5S".
function describe(text) {
  const [verb, ...cards] = text.split(' ');
  if (verb === 'play') return t('papayoo.move.play', { card: cardName(cards[0]) });
  if (verb === 'pass') return t('papayoo.move.pass_cards', { cards: cards.map(cardName).join(', ') });
  return undefined;
}

export default register({
  name: 'papayoo',
  icon: '20P',
  render, seatInfo, scores, describe,
  // The first dealer is drawn and ties are always shared: nothing to choose.
  hiddenOptions: ['first_dealer', 'tie_break'],
  listOptions: ['rounds'],
});
