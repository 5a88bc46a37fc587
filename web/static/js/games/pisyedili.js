// Pis Yedili: the table, the score sheet and the moves in words.
import { h } from '../dom.js';
import { t, cardName } from '../i18n.js';
import { cardEl, seatName, seatMark, flipEl, handTitle } from '../pieces.js';
import { sortCards, suitIcon, rankOf, handClass } from '../cards.js';
import { register, ruleSaid, optionFlag } from '../games.js';

// The pending chain (docs/games/pisyedili.md): kind, count k, and the cards
// a penalty takes.
function chain(v) {
  const p = v.chain;
  if (!p || !p.count) return null;
  return { kind: p.kind, count: p.count, cards: p.draw };
}
const KIND = { seven: () => t('pisyedili.kind_seven'), joker: () => t('pisyedili.kind_joker') };

// What a special card does, said in the hand's accessible names.
const SPECIAL = {
  '7': () => t('pisyedili.eff7'), A: () => t('pisyedili.effA'), J: () => t('pisyedili.effJ'),
  '10': () => t('pisyedili.eff10'), '8': () => t('pisyedili.eff8'), JK: () => t('pisyedili.effJK'),
};


// lastPlayer is the seat that played the top card, from the history.
function lastPlayer(ctx) {
  const hist = ctx.history || [];
  for (let i = hist.length - 1; i >= 0; i--) {
    const e = hist[i];
    if (!e) continue;
    if (e.kind === 'play') return e.seat;
    if (e.kind === 'deal') return -1;
  }
  return -1;
}

// handStarted: the hand after the last scored one has seen a card played
// (its summary closes then), from the history or, without one, the pile.
function handStarted(ctx, v) {
  const hist = ctx.history || [];
  if (hist.length) {
    for (let i = hist.length - 1; i >= 0; i--) {
      const e = hist[i];
      if (!e) continue;
      if (e.kind === 'hand') return false;
      if (e.kind === 'play') return true;
    }
    return false;
  }
  return (v.pile || []).length > 1;
}

// whyNot says why a card of the hand cannot be played now.
function whyNot(ctx, v, turn, ch) {
  if (turn !== ctx.seat) return t('table.why_not_turn', { name: seatName(ctx, turn) });
  if (ch) return t('pisyedili.why_chain', { n: ch.cards });
  if (v.phase === 'opening') return t('pisyedili.why_club');
  if (v.phase === 'after_draw') return t('pisyedili.why_drawn');
  if (v.phase === 'ace_continue') return t('pisyedili.why_ace');
  const rank = v.active_rank === 'JK' ? t('card.joker') : (t('rank.' + v.active_rank) !== 'rank.' + v.active_rank ? t('rank.' + v.active_rank) : v.active_rank);
  return v.active_suit ? t('pisyedili.why_match', { suit: t('suit.' + v.active_suit), rank }) : t('table.not_playable');
}

function render(ctx) {
  const v = ctx.view;
  const ui = ctx.ui;
  const me = ctx.seat;
  const legal = ctx.legal;
  const n = v.players;
  const phase = v.phase;
  const top = v.top;
  const activeSuit = v.active_suit;
  const activeRank = v.active_rank;
  const ch = chain(v);
  const opening = phase === 'opening';
  const turn = (ctx.toAct || [])[0];

  const badges = [
    h('span', { class: 'badge', 'data-testid': 'hand-no' }, t('pisyedili.hand_no', { n: v.round || 1, of: v.round_count || '?' })),
    opening ? h('span', { class: 'badge gold', 'data-testid': 'opening-badge' }, t('pisyedili.opening_badge')) : null,
  ];

  // Stock, top card, active suit and rank, chain, direction.
  const canDraw = legal.includes('draw');
  const center = h('div', { class: 'center', 'data-testid': 'center' },
    h('div', { class: 'stock', 'data-testid': 'stock' },
      cardEl('back', { button: true, disabled: !canDraw, cls: canDraw ? 'playable' : '', testid: 'draw-stock', key: 'stock', label: t('pisyedili.draw_n', { n: v.stock_size }), onclick: canDraw ? () => ctx.move('draw') : undefined }),
      h('span', {}, t('pisyedili.stock_n', { n: v.stock_size }))),
    h('div', { class: 'stock pile-top', 'data-testid': 'top-card' },
      h('div', { class: 'pile-fan' },
        (v.pile || []).slice(-5, -1).map((c) => cardEl(c, { cls: 'under' })),
        top ? flipEl(cardEl(top, { cls: 'top' }), top, lastPlayer(ctx) >= 0 ? 'seat-' + lastPlayer(ctx) : '') : h('div', { class: 'card' })),
      h('span', {}, t('pisyedili.top'))),
    h('div', { class: 'offer', 'data-testid': 'active' },
      activeSuit ? h('div', { 'data-testid': 'active-suit', 'data-suit': activeSuit }, t('pisyedili.active_suit'), ' ', suitIcon(activeSuit, 22), ' ', t('suit.' + activeSuit)) : null,
      activeRank ? h('div', { 'data-testid': 'active-rank' }, t('pisyedili.active_rank'), ' ', h('strong', {}, activeRank === 'JK' ? t('card.joker') : (t('rank.' + activeRank) !== 'rank.' + activeRank ? t('rank.' + activeRank) : activeRank))) : null,
      ch ? h('div', { class: 'chain', 'data-testid': 'chain' }, h('span', { class: 'badge red' }, t('pisyedili.chain', { n: ch.cards, k: ch.count, kind: (KIND[ch.kind] || KIND.seven)() }))) : null,
      turn !== undefined ? h('div', { class: 'dir', 'data-testid': 'turn-info' }, t('table.turn_of', { name: seatName(ctx, turn) }), nextInfo(ctx, v, n, turn)) : null));

  if (opening) {
    center.appendChild(h('div', { class: 'offer', 'data-testid': 'opening' }, h('strong', {}, t('pisyedili.opening_title')), ' ', t('pisyedili.opening_text')));
  }
  const fin = v.finished || [];
  const over = phase === 'hand_over' || phase === 'over' || ctx.status === 'finished';
  if (v.ending && phase === 'hand_over') {
    center.appendChild(handSummary(ctx, v.ending, n, v.revealed));
  } else if (fin.length) {
    // The last hand's summary shows until the next hand's first card (or
    // it is closed), and can be opened again during the hand.
    const auto = !over && !handStarted(ctx, v) && ui.closedHand !== fin.length;
    if (over || auto || ui.openHand === fin.length) {
      center.appendChild(h('div', {}, handSummary(ctx, fin[fin.length - 1], n),
        over ? null : h('button', {
          class: 'btn small secondary', type: 'button', 'data-testid': 'dismiss-hand',
          onclick: () => { ui.closedHand = fin.length; ui.openHand = 0; ctx.rerender(); },
        }, t('final.close'))));
    } else {
      center.appendChild(h('button', {
        class: 'btn small secondary', type: 'button', 'data-testid': 'reopen-hand',
        onclick: () => { ui.openHand = fin.length; ctx.rerender(); },
      }, t('pisyedili.show_last_hand', { n: fin.length })));
    }
  }
  if (v.drawing && v.drawing.left > 0) {
    center.appendChild(h('div', { class: 'offer', 'data-testid': 'drawing' }, t('pisyedili.drawing', { name: seatName(ctx, v.drawing.seat), n: v.drawing.left })));
  }

  // Status.
  let status = '';
  let sub = '';
  if (ctx.status === 'finished' || phase === 'over') status = t('table.game_over');
  else if (turn === undefined) status = t('table.dealing');
  else {
    status = turn === me ? t('table.your_turn') : t('table.turn_of', { name: seatName(ctx, turn) });
    if (turn === me) {
      if (ch) sub = t('pisyedili.must_answer', { n: ch.cards });
      else if (opening) sub = t('pisyedili.must_club');
      else if (phase === 'after_draw') sub = t('pisyedili.after_draw');
      else if (phase === 'ace_continue') sub = t('pisyedili.ace_again');
    }
  }

  // Hand.
  let hand = null;
  if (me >= 0 && v.hand) {
    const plays = legal.filter((m) => m.startsWith('play '));
    const playable = new Set(plays.map((m) => m.split(' ')[1]));
    const hinted = ctx.hint && ctx.hint.startsWith('play ') ? ctx.hint.split(' ')[1] : null;
    const cards = sortCards(v.hand);
    const row = h('div', { class: handClass(cards.length), 'data-testid': 'hand', role: 'group', 'aria-label': handTitle(ctx) });
    // Two decks: the second copy of a card gets its own key and name.
    const seen = {};
    cards.forEach((c) => {
      const ok = playable.has(c);
      const eff = SPECIAL[rankOf(c)];
      const copy = seen[c] = (seen[c] || 0) + 1;
      const name = copy > 1 ? c + '#' + copy : c;
      const el = flipEl(cardEl(c, {
        testid: 'hand-card', key: 'h' + name, disabled: !ok,
        cls: ok ? (c === hinted ? 'playable selected' : 'playable') : (plays.length || turn === me ? 'illegal' : ''),
        label: cardName(c) + (eff && !opening ? ' — ' + eff() : '') + (ok ? '' : (turn === me && !ctx.readonly ? ' — ' + whyNot(ctx, v, turn, ch) : '')),
        onclick: () => {
          const withSuit = plays.filter((m) => m.split(' ')[1] === c && m.split(' ').length > 2);
          if (withSuit.length) { ui.jack = c; ctx.rerender(); } else ctx.move('play ' + c);
        },
      }), name, 'draw-stock');
      if (!ok && !ctx.readonly) el.dataset.why = whyNot(ctx, v, turn, ch);
      row.appendChild(el);
    });
    const btn = (move, label, testid) => legal.includes(move)
      ? h('button', { class: 'btn' + (move === 'penalty' ? ' danger' : ''), type: 'button', 'data-testid': testid, onclick: () => ctx.move(move) }, label) : null;
    const controls = h('div', { class: 'controls' },
      btn('draw', t('pisyedili.draw'), 'draw'),
      btn('pass', t('pisyedili.pass'), 'pass'),
      btn('penalty', ch ? t('pisyedili.penalty_n', { n: ch.cards }) : t('pisyedili.penalty'), 'penalty'),
      btn('end', t('pisyedili.end'), 'end-turn'));
    let pickSuit = null;
    let cancel = null; // the picker's Cancel, and Escape's
    if (ui.jack && playable.has(ui.jack)) {
      const jackMoves = plays.filter((m) => m.split(' ')[1] === ui.jack && m.split(' ').length > 2);
      // Escape cancels, as the Cancel button does, and gives the jack
      // its focus back.
      cancel = () => { const j = ui.jack; ui.jack = null; ctx.rerender(); setTimeout(() => { const c = document.querySelector(`[data-testid=hand-card][data-card="${j}"]`); if (c) c.focus(); }, 0); };
      pickSuit = h('div', { class: 'offer', role: 'dialog', 'aria-label': t('pisyedili.choose_suit'), 'data-testid': 'suit-picker' },
        h('p', {}, t('pisyedili.choose_suit_for', { card: cardName(ui.jack) })),
        h('div', { class: 'suitpick' }, jackMoves.map((m) => {
          const s = m.split(' ')[2];
          return h('button', { type: 'button', 'data-testid': 'suit-' + s, 'data-key': 'suit' + s, 'aria-label': t('suit.' + s), title: t('suit.' + s), onclick: () => { ui.jack = null; ctx.move(m); ctx.rerender(); } }, suitIcon(s, 32));
        })),
        h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'suit-cancel', onclick: cancel }, t('table.cancel')));
      setTimeout(() => { const b = document.querySelector('[data-testid=suit-picker] button'); if (b && !b.contains(document.activeElement) && !document.activeElement.closest('[data-testid=suit-picker]')) b.focus(); }, 0);
    } else ui.jack = null;
    // Escape anywhere in the hand (the picker, or the jack still focused)
    // closes the picker.
    const onkeydown = cancel ? (e) => { if (e.key === 'Escape') { e.stopPropagation(); cancel(); } } : undefined;
    hand = h('section', { class: 'hand-area', 'aria-label': handTitle(ctx), onkeydown }, h('h3', {}, handTitle(ctx), ` (${cards.length})`), pickSuit, row, controls);
  }
  return { center, hand, status, sub, badges };
}

// nextInfo says why this seat has the turn (8 skip, 10 bounce, ace) and
// where the turn goes after a plain card.
function nextInfo(ctx, v, n, turn) {
  const bits = [];
  const back = (turn - (v.direction === 'counterclockwise' ? -1 : 1) + n) % n;
  switch (v.turn_reason) {
    case 'skip': bits.push(t('pisyedili.skipped', { name: seatName(ctx, back) })); break;
    case 'bounce': bits.push(t('pisyedili.bounced', { name: seatName(ctx, turn) })); break;
    case 'reverse': bits.push(t('pisyedili.reversed')); break;
    case 'ace': bits.push(t('pisyedili.reason_ace')); break;
    default: break;
  }
  if (v.phase !== 'opening' || v.opening_left > 1) {
    const next = (turn + (v.direction === 'counterclockwise' ? -1 : 1) + n) % n;
    bits.push(t('pisyedili.next_is', { name: seatName(ctx, next) }));
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
      h('td', {}, seatName(ctx, s), seatMark(ctx, s)),
      h('td', {}, (draws[s] || []).length ? h('span', { class: 'row' }, draws[s].map((c) => cardEl(c, { size: 'tiny' }))) : '—'),
      h('td', {}, (hands[s] || []).length ? h('span', { class: 'row' }, sortCards(hands[s]).map((c) => cardEl(c, { size: 'tiny' }))) : '—'),
      h('td', { 'data-testid': 'hand-penalty-' + s }, pens[s] !== undefined ? String(pens[s]) : '')));
  }
  return h('div', { class: 'offer', 'data-testid': 'hand-summary', style: 'color:inherit' },
    h('h3', {}, t('pisyedili.hand_n', { n: lh.hand || '' })),
    h('p', {}, fin !== undefined && fin >= 0
      ? t('pisyedili.finished_by', { name: seatName(ctx, fin), card: lh.card ? cardName(lh.card) : '' })
      : t('pisyedili.blocked')),
    h('p', { 'data-testid': 'multiplier' }, t('pisyedili.multiplier', { m: lh.multiplier || 1 })),
    h('table', { class: 'summary' },
      h('thead', {}, h('tr', {}, h('th', {}, t('final.player')), h('th', {}, t('pisyedili.end_draws')), h('th', {}, t('pisyedili.left_in_hand')), h('th', {}, t('pisyedili.penalty_pts')))),
      h('tbody', {}, rows)));
}

// DRAW_WHY is the text of a draw for each reason (docs/protocol.md).
const DRAW_WHY = {
  turn: 'pisyedili.h.draw_turn', seven: 'pisyedili.h.draw_seven', joker: 'pisyedili.h.draw_joker',
  ace: 'pisyedili.h.draw_ace', penalty: 'pisyedili.h.draw_penalty', end: 'pisyedili.h.draw_end',
};

// describeEntry says a history entry in words, in the past tense
// (js/history.js shows it).
function describeEntry(e, ctx) {
  const name = seatName(ctx, e.seat);
  const card = (e.cards || []).map(cardName).join(', ');
  switch (e.kind) {
    case 'deal': return t('pisyedili.h.deal', { name });
    case 'play':
      if (e.suit) return t('pisyedili.h.play_jack', { name, card, suit: t('suit.' + e.suit) });
      return t('pisyedili.h.play', { name, card });
    case 'draw': return t(DRAW_WHY[e.why] || 'pisyedili.h.draw_other', { name, n: e.count || 0 });
    case 'pass': return t('pisyedili.h.pass', { name });
    case 'penalty': return t('pisyedili.h.penalty', { name, n: e.count || 0 });
    case 'shuffle': return t('pisyedili.h.shuffle', { n: e.count || 0 });
    case 'hand': return t('pisyedili.h.hand', { scores: (e.scores || []).map((p, s) => `${seatName(ctx, s)} ${p}`).join(' · ') });
    default: return undefined;
  }
}

// holdFor: a hand's end stays a moment longer, so its summary is read
// before the next deal.
function holdFor(e) {
  if (e.kind === 'hand') return 2000;
  return undefined;
}

function seatInfo(ctx, s) {
  const v = ctx.view;
  const parts = [];
  if ((v.hand_sizes || [])[s] !== undefined) parts.push(t('table.cards_n', { n: v.hand_sizes[s] }));
  if ((v.totals || [])[s] !== undefined) parts.push(t('pisyedili.penalty_total', { n: v.totals[s] }));
  if (v.dealer === s) parts.push(t('table.dealer'));
  return parts.join(' · ');
}

function scores(ctx) {
  const v = ctx.view;
  const n = v.players;
  const rounds = v.round_scores || [];
  const head = [];
  for (let s = 0; s < n; s++) head.push(h('th', {}, seatName(ctx, s), seatMark(ctx, s)));
  return h('div', {},
    h('table', { 'data-testid': 'score-sheet' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), head)),
      h('tbody', {},
        rounds.map((r, i) => h('tr', {}, h('td', {}, t('pisyedili.hand_n', { n: i + 1 })), r.map((x) => h('td', {}, String(x))))),
        h('tr', { class: 'total' }, h('td', {}, t('final.total')), (v.totals || []).map((x, s) => h('td', { 'data-testid': 'score-total-' + s }, String(x)))))),
    h('p', { class: 'meta' }, t('pisyedili.lower_wins')));
}

// describe says a Pis Yedili move in words: play (a jack with the suit it
// asks for), draw, pass, penalty, end.
function describe(text) {
  const parts = text.split(' ');
  switch (parts[0]) {
    case 'play':
      if (parts.length > 2) return t('pisyedili.move.play_jack', { card: cardName(parts[1]), suit: t('suit.' + parts[2]) });
      return t('pisyedili.move.play', { card: cardName(parts[1]) });
    case 'draw': return t('pisyedili.move.draw');
    case 'pass': return t('pisyedili.move.pass');
    case 'penalty': return t('pisyedili.move.penalty');
    case 'end': return t('pisyedili.move.end');
    default: return undefined;
  }
}

// rulesText is the rules of this table's options: its number of hands,
// whether it plays with the jokers (without them, the joker's rules go),
// how a seven chain grows and what a 10 does, where a jack may go, what a
// draw allows, whether taking a chain's cards ends the turn, what follows
// a joker and whether the finishing card takes effect. Without a table
// (options null) the rules say what may be agreed, and the defaults.
function rulesText(options) {
  const o = options || {};
  const n = parseInt(o.hands, 10);
  const jokers = options ? o.jokers !== 'false' : null;
  const jackWild = optionFlag(o.jack_wild, true);
  const jackOnJack = optionFlag(o.jack_on_jack, true);
  const jack = jackWild
    ? (jackOnJack ? 'pisyedili.rules_jack' : 'pisyedili.rules_jack_not_on_jack')
    : (jackOnJack ? 'pisyedili.rules_jack_match' : 'pisyedili.rules_jack_match_not_on_jack');
  const until = optionFlag(o.draw_until_playable, false);
  const anyCard = optionFlag(o.play_any_after_draw, false);
  const draw = until
    ? (anyCard ? 'pisyedili.rules_draw_until_play_any' : 'pisyedili.rules_draw_until')
    : (anyCard ? 'pisyedili.rules_draw_play_any' : 'pisyedili.rules_draw');
  return t('pisyedili.rules', {
    goal: n > 0 ? t('pisyedili.rules_goal', { n }) : t('pisyedili.rules_goal_any'),
    decks: jokers === null ? t('pisyedili.rules_decks_any') : jokers ? t('pisyedili.rules_decks_jokers') : t('pisyedili.rules_decks_none'),
    joker_rule: jokers === false ? '' : t('pisyedili.rules_joker'),
    seven_rule: ruleSaid(options, 'pisyedili.rules_seven', o.seven_stack === 'doubling' ? 'pisyedili.rules_seven_doubling' : 'pisyedili.rules_seven'),
    ten_rule: ruleSaid(options, 'pisyedili.rules_ten', o.ten_mode === 'reverse' ? 'pisyedili.rules_ten_reverse' : 'pisyedili.rules_ten'),
    jack_rule: ruleSaid(options, 'pisyedili.rules_jack', jack),
    draw_rule: ruleSaid(options, 'pisyedili.rules_draw', draw),
    penalty_rule: ruleSaid(options, 'pisyedili.rules_penalty', optionFlag(o.penalty_ends_turn, true) ? 'pisyedili.rules_penalty' : 'pisyedili.rules_penalty_play_on'),
    after_joker_rule: jokers === false ? ''
      : ruleSaid(options, 'pisyedili.rules_after_joker', o.joker_follow === 'any' ? 'pisyedili.rules_after_joker_free' : 'pisyedili.rules_after_joker'),
    finish_rule: ruleSaid(options, 'pisyedili.rules_finish', optionFlag(o.finishing_card_effects, false) ? 'pisyedili.rules_finish_effects' : 'pisyedili.rules_finish'),
  });
}

export default register({
  name: 'pisyedili',
  icon: '7C',
  render, seatInfo, scores, describe, describeEntry, holdFor, rulesText,
  listOptions: ['hands'],
});
