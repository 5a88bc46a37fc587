// Papayoo: the table, the score sheet and the moves in words.
import { h } from '../dom.js';
import { t, cardName } from '../i18n.js';
import { cardEl, seatName, seatMark, handTitle } from '../pieces.js';
import { sortCards, suitIcon, suitOf, handClass } from '../cards.js';
import { register } from '../games.js';

// The seven that is the Papayoo this round is drawn marked.
const MARK = 'PAPAYOO 40';
const mark = (v, c) => (c === v.papayoo ? MARK : '');

// flipEl names a card for the table's motion (dom.js flip): the same name
// before and after a change slides the card from its old place; to, a
// seat's test id, is where it flies when it leaves the table (a trick to
// its winner).
function flipEl(el, name, to, from) {
  el.dataset.flip = name;
  if (!el.dataset.key) el.dataset.key = name; // hand cards keep their own ("h7H")
  if (to) el.dataset.flipTo = to;
  if (from) el.dataset.flipFrom = from;
  return el;
}

// trickSeats gives the seat of each card of a finished trick seen in the
// history: the trick entry's cards are in play order from its leader, and
// the play entries before it say who played them.
function trickSeats(history, entry, n) {
  const at = history.lastIndexOf(entry);
  const seats = [];
  const cards = entry.cards || [];
  for (let i = at - 1; i >= 0 && seats.length < cards.length; i--) {
    const e = history[i];
    if (!e) continue;
    if (e.kind === 'trick' || e.kind === 'deal') break;
    if (e.kind === 'play' && (e.cards || [])[0] === cards[cards.length - 1 - seats.length]) seats.push(e.seat);
  }
  if (seats.length === cards.length) return seats.reverse();
  // Without the plays (a history window that starts later): count back
  // from the winner is impossible, so leave the seats unnamed.
  return cards.map(() => -1);
}

// finishedTrick draws a finished trick with its winner marked; its cards
// fly to the winner's seat when they leave the table.
function finishedTrick(ctx, v, cards, seats, winner, points, testid) {
  return h('div', { class: 'trick finished', 'data-testid': testid, 'data-winner': winner, role: 'group', 'aria-label': t('papayoo.trick_won', { name: seatName(ctx, winner), points }) },
    cards.map((c, i) => flipEl(cardEl(c, {
      who: seats[i] >= 0 ? seatName(ctx, seats[i]) : '', mark: mark(v, c),
      cls: seats[i] === winner ? 'winner' : '',
    }), c, 'seat-' + winner)),
    h('span', { class: 'trick-won', 'data-testid': 'trick-winner' }, t('papayoo.trick_won', { name: seatName(ctx, winner), points })));
}

// lastTrickOf is the trick before the current one, as {cards, seats,
// winner, points}: from the view's finished tricks, else (at the start of
// a round) from the history's last trick entry.
function lastTrickOf(ctx, v) {
  const n = v.players;
  const tr = v.tricks || [];
  if (tr.length) {
    const l = tr[tr.length - 1];
    return { cards: l.cards, seats: l.cards.map((_, i) => (l.leader + i) % n), winner: l.winner, points: l.points };
  }
  const hist = ctx.history || [];
  for (let i = hist.length - 1; i >= 0; i--) {
    const e = hist[i];
    if (e && e.kind === 'trick') return { cards: e.cards || [], seats: trickSeats(hist, e, n), winner: e.seat, points: e.points || 0 };
  }
  return null;
}

// lastRound is the newest round entry of the history: the round's points,
// the Papayoo card and who took it.
function lastRound(ctx) {
  const hist = ctx.history || [];
  for (let i = hist.length - 1; i >= 0; i--) if (hist[i] && hist[i].kind === 'round') return hist[i];
  return null;
}

// whyNot says why a card of the hand cannot be played now.
function whyNot(ctx, v, c, plays) {
  const me = ctx.seat;
  if (v.phase === 'pass') return t('papayoo.why_pass_wait');
  if (v.phase !== 'play') return t('table.why_wait');
  const turn = (ctx.toAct || [])[0];
  if (turn !== me || !plays.size) return t('table.why_not_turn', { name: seatName(ctx, turn) });
  const trick = v.trick || { cards: [] };
  if (trick.cards && trick.cards.length) return t('papayoo.why_follow', { suit: t('suit.' + suitOf(trick.cards[0])) });
  return t('table.not_playable');
}

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
    h('button', {
      class: 'btn small secondary', type: 'button', 'data-testid': 'last-trick-button', 'aria-pressed': String(!!ui.showLast),
      onclick: () => { ui.showLast = !ui.showLast; ctx.rerender(); },
    }, t('papayoo.last_trick')),
  ];

  // The middle of the table.
  const center = h('div', { class: 'center', 'data-testid': 'center' });
  if (v.die) {
    center.appendChild(h('div', { class: 'row', 'data-testid': 'die', role: 'group', 'aria-label': t('papayoo.die', { suit: t('suit.' + v.die) }) },
      h('div', { class: 'die', title: t('papayoo.die', { suit: t('suit.' + v.die) }) }, suitIcon(v.die, 40)),
      cardEl(v.papayoo, { size: 'small', mark: MARK })));
  }
  const trick = v.trick || { cards: [] };
  const last = (v.tricks || [])[(v.tricks || []).length - 1];
  const paced = ctx.pace && ctx.pace.trick;
  if (paced) {
    // The pacing holds a trick that just closed (the last one of a round
    // too, which the next view no longer has): show it with its winner.
    center.appendChild(finishedTrick(ctx, v, paced.cards || [], trickSeats(ctx.history || [], paced, n), paced.seat, paced.points || 0, 'last-trick'));
  } else if (trick.cards && trick.cards.length) {
    center.appendChild(h('div', { class: 'trick', 'data-testid': 'trick', role: 'group', 'aria-label': t('papayoo.trick') },
      trick.cards.map((c, i) => flipEl(cardEl(c, { who: seatName(ctx, (trick.leader + i) % n), mark: mark(v, c) }), c, '', 'seat-' + ((trick.leader + i) % n)))));
  } else if (last && phase === 'play') {
    center.appendChild(finishedTrick(ctx, v, last.cards, last.cards.map((_, i) => (last.leader + i) % n), last.winner, last.points, 'last-trick'));
  }
  if (ui.showLast && !paced) {
    const lt = lastTrickOf(ctx, v);
    center.appendChild(h('div', { class: 'offer', 'data-testid': 'last-trick-panel' },
      lt ? finishedTrick(ctx, v, lt.cards, lt.seats, lt.winner, lt.points, 'previous-trick') : h('p', {}, t('papayoo.no_trick_yet'))));
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
  const summaryDue = (phase === 'round_over' || phase === 'over' || (v.round > 1 && (v.tricks || []).length === 0 && !(trick.cards || []).length)) && (v.round_scores || []).length;
  if (summaryDue && !paced && !ui.closedSummary?.[v.round_scores.length]) center.appendChild(roundSummary(ctx, v));
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
    const row = h('div', { class: handClass(cards.length), 'data-testid': 'hand', role: 'group', 'aria-label': handTitle(ctx) });
    let prevSuit = null;
    cards.forEach((c, i) => {
      const s = suitOf(c);
      if (prevSuit && s !== prevSuit) row.appendChild(h('span', { class: 'suit-gap', 'aria-hidden': 'true' }));
      prevSuit = s;
      if (canPass) {
        const sel = ui.sel.includes(c);
        row.appendChild(flipEl(cardEl(c, {
          testid: 'hand-card', key: 'h' + c, pressed: sel, cls: (sel ? 'selected' : '') + (hinted.has(c) ? ' playable' : ''),
          onclick: () => {
            if (ui.sel.includes(c)) ui.sel = ui.sel.filter((x) => x !== c);
            else if (ui.sel.length < v.pass_size) ui.sel = [...ui.sel, c];
            else { ctx.notify(t('papayoo.pass_full', { n: v.pass_size })); return; }
            ctx.rerender();
          },
        }), c));
      } else {
        const ok = plays.has(c);
        const why = !ok && !ctx.readonly ? whyNot(ctx, v, c, plays) : '';
        const el = flipEl(cardEl(c, {
          testid: 'hand-card', key: 'h' + c, disabled: !ok, mark: mark(v, c),
          cls: ok ? (hinted.has(c) ? 'playable selected' : 'playable') : (phase === 'play' && plays.size ? 'illegal' : ''),
          // In the player's turn the name says why the card cannot go.
          label: cardName(c) + (ok ? '' : (plays.size ? ' — ' + why : '')),
          onclick: () => ctx.move('play ' + c),
        }), c);
        if (why) el.dataset.why = why;
        row.appendChild(el);
      }
    });
    const controls = canPass ? h('div', { class: 'controls' },
      h('button', {
        class: 'btn', type: 'button', 'data-testid': 'pass-confirm', disabled: ui.sel.length !== v.pass_size,
        onclick: () => { if (ui.sel.length === v.pass_size) ctx.move('pass ' + sortCards(ui.sel).join(' ')); },
      }, t('papayoo.pass_confirm', { n: ui.sel.length, k: v.pass_size })),
      h('button', { class: 'btn secondary', type: 'button', 'data-testid': 'pass-clear', disabled: !ui.sel.length, onclick: () => { ui.sel = []; ctx.rerender(); } }, t('table.clear'))) : null;
    hand = h('section', { class: 'hand-area', 'aria-label': handTitle(ctx) }, h('h3', {}, handTitle(ctx), ` (${cards.length})`), row, controls);
  }
  return { center, hand, status, sub, badges };
}

// roundSummary is the end of a round: each player's points, the Papayoo
// and who took it, the running totals. It stays until the round's first
// trick is played (or it is closed).
function roundSummary(ctx, v) {
  const n = v.players;
  const r = v.round_scores.length;
  const pts = v.round_scores[r - 1] || [];
  const entry = lastRound(ctx);
  let card = entry && (entry.cards || [])[0];
  let taker = entry && entry.to !== undefined ? entry.to : -1;
  if (!entry && v.phase === 'round_over' && v.papayoo) {
    card = v.papayoo;
    const tr = (v.tricks || []).find((x) => (x.cards || []).includes(v.papayoo));
    if (tr) taker = tr.winner;
  }
  const rows = [];
  for (let s = 0; s < n; s++) {
    rows.push(h('tr', { 'data-testid': 'summary-row-' + s },
      h('td', {}, seatName(ctx, s), seatMark(ctx, s)),
      h('td', { 'data-testid': 'summary-points-' + s }, String(pts[s] ?? '')),
      h('td', { 'data-testid': 'summary-total-' + s }, String((v.totals || [])[s] ?? ''))));
  }
  return h('div', { class: 'offer summary-box', 'data-testid': 'round-summary', role: 'region', 'aria-labelledby': 'round-summary-h' },
    h('h3', { id: 'round-summary-h' }, t('papayoo.round_summary', { round: r })),
    card ? h('p', { 'data-testid': 'summary-papayoo' }, cardEl(card, { size: 'tiny', mark: MARK }), ' ',
      taker >= 0 ? t('papayoo.papayoo_to', { card: cardName(card), name: seatName(ctx, taker) }) : t('papayoo.papayoo_was', { card: cardName(card) })) : null,
    h('table', { class: 'summary' },
      h('thead', {}, h('tr', {}, h('th', {}, t('final.player')), h('th', {}, t('papayoo.round_points')), h('th', {}, t('final.total')))),
      h('tbody', {}, rows)),
    h('button', {
      class: 'btn small secondary', type: 'button', 'data-testid': 'round-summary-close',
      onclick: () => { ctx.ui.closedSummary = { ...(ctx.ui.closedSummary || {}), [r]: true }; ctx.rerender(); },
    }, t('final.close')));
}

// describeEntry says a history entry in words, in the past tense
// (js/history.js shows it).
function describeEntry(e, ctx) {
  const name = seatName(ctx, e.seat);
  const cards = (e.cards || []).map(cardName).join(', ');
  switch (e.kind) {
    case 'deal': return t('papayoo.h.deal', { name });
    case 'pass': return t('papayoo.h.pass', { name, n: e.count || 0, to: seatName(ctx, e.to) });
    case 'die': return t('papayoo.h.die', { suit: t('suit.' + e.suit), card: cards });
    case 'play': return t('papayoo.h.play', { name, card: cards });
    case 'trick': return t('papayoo.h.trick', { name, n: e.points || 0, cards });
    case 'round': {
      const pts = (e.scores || []).map((p, s) => `${seatName(ctx, s)} ${p}`).join(' · ');
      return e.to !== undefined && e.to >= 0 && cards
        ? t('papayoo.h.round_to', { scores: pts, card: cards, name: seatName(ctx, e.to) })
        : t('papayoo.h.round', { scores: pts });
    }
    default: return undefined;
  }
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
      h('td', {}, seatName(ctx, s), seatMark(ctx, s)),
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

// rulesText is the rules with this table's number of rounds (options
// null: "the agreed number").
function rulesText(options) {
  const n = parseInt((options || {}).rounds, 10);
  const goal = n > 0 ? t('papayoo.rules_goal', { n }) : t('papayoo.rules_goal_any');
  return t('papayoo.rules', { goal });
}

export default register({
  name: 'papayoo',
  icon: '20P',
  render, seatInfo, scores, describe, describeEntry, rulesText,
  // The first dealer is drawn and ties are always shared: nothing to choose.
  hiddenOptions: ['first_dealer', 'tie_break'],
  listOptions: ['rounds'],
});
