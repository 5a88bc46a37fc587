// 500 Rum: the table, the score sheet, the end-of-hand summary and the
// moves and history entries in words.
//
// The client never builds a move: every action matches what the player
// selected against the `legal` list of the latest state and sends that text
// back. With jokers one selection can fit several legal moves (a joker
// standing for different cards, an ace at either end of a 13-card run): the
// player then picks one of them, said in words.
import { h } from '../dom.js';
import { t, cardName, has } from '../i18n.js';
import { cardEl, seatName, seatMark, flipEl, handTitle } from '../pieces.js';
import { sortCards, SUIT_COLOR, sameCards, suitIcon, handClass } from '../cards.js';
import { register, ruleSaid, optionFlag } from '../games.js';

// The view (docs/games/rum500.md): pile bottom → top, stock a size, melds
// with their number, cards (JK for a joker), the cards they stand for and
// the seat credited for each card.
function pile(v) { return v.pile || []; }
function stockSize(v) { return v.stock || 0; }
function melds(v) { return v.melds || []; }
function target(ctx) { return (ctx.view.options && ctx.view.options.target) || ctx.options.target || 500; }
function jokersOn(ctx) { return +((ctx.view.options && ctx.view.options.jokers) || ctx.options.jokers || 0) > 0; }
// The end of a 13-card run an ace goes on, in a lay-off with a choice.
const END = { low: () => t('rum500.low'), high: () => t('rum500.high') };
const endName = (e) => (END[e] ? END[e]() : e);
// Where the ace of a 13-card run meld lies, said in a choice.
const ACE = { low: () => t('rum500.ace_low'), high: () => t('rum500.ace_high') };
const aceName = (e) => (ACE[e] ? ACE[e]() : e);

// ---- move notation ----

// tok reads one card of a move: "8S", "JK" (a joker in hand or in the pile)
// or "JK=8S" (a joker standing for the 8 of spades).
function tok(s) {
  const i = s.indexOf('=');
  return i < 0 ? { card: s, as: null } : { card: s.slice(0, i), as: s.slice(i + 1) };
}

// tokName says a card of a move in words, a joker with what it stands for.
function tokName(s) {
  const x = tok(s);
  return x.as ? t('rum500.joker_as', { card: cardName(x.as) }) : cardName(x.card);
}

const listNames = (toks) => toks.map(tokName).join(', ');

// parse splits a legal move into what the table needs to match it against
// a selection: its verb, the pile card of a take (x) and the take's use,
// the cards it puts on the table (cards, in move notation), the meld
// number and the end of a lay-off.
function parse(text) {
  const p = text.split(' ');
  const m = { text, verb: p[0], cards: [], meld: 0, end: '', x: '', use: '' };
  switch (p[0]) {
    case 'meld': m.cards = p.slice(1); break;
    case 'layoff': m.cards = [p[1]]; m.meld = +p[2]; m.end = p[3] || ''; break;
    case 'discard': m.cards = [p[1]]; break;
    case 'take':
      m.x = p[1];
      m.use = p[2] || '';
      if (m.use === 'meld') m.cards = p.slice(3);
      else if (m.use === 'layoff') { m.cards = [p[1]]; m.meld = +p[3]; m.end = p[4] || ''; }
      break;
    default:
  }
  return m;
}

// handCards are the cards a move takes from the hand or the pile: a joker
// is "JK" whatever it stands for.
const handCards = (m) => m.cards.map((s) => tok(s).card);

// meldKinds groups melds by kind, in their order: a set of one rank or a
// run in one suit (from the cards the jokers stand for). With three or
// four jokers one selection can make a hundred melds; the player first
// picks the kind, then the meld.
function meldKinds(ms) {
  const kinds = [];
  for (const m of ms) {
    const reps = m.cards.map((s) => tok(s).as || tok(s).card);
    const rank = reps[0].slice(0, -1);
    const set = reps.every((c) => c.slice(0, -1) === rank);
    const key = set ? 'set-' + rank : 'run-' + reps[0].slice(-1);
    let k = kinds.find((x) => x.key === key);
    if (!k) {
      const label = set
        ? t('rum500.kind_set', { rank: has('rank.' + rank) ? t('rank.' + rank) : rank })
        : t('rum500.kind_run', { suit: t('suit.' + reps[0].slice(-1)) });
      k = { key, label, items: [] };
      kinds.push(k);
    }
    k.items.push(m);
  }
  return kinds;
}

// flatChoices is the most melds a "which meld?" list shows at once;
// past it they are grouped by kind (meldKinds).
const flatChoices = 8;

// aceEnd says where the ace of a 13-card run meld lies ("low" when written
// first, "high" when last), else "".
function aceEnd(m) {
  if (m.cards.length !== 13) return '';
  if (tok(m.cards[0]).card.startsWith('A') || (tok(m.cards[0]).as || '').startsWith('A')) return 'low';
  return 'high';
}

// ---- the selection ----

// items lists the hand sorted, each card with a key that tells two copies
// apart (two jokers, or two 7♥ with two decks): "JK#1", "JK#2". Selecting
// one copy selects that one only.
function items(hand) {
  const seen = {};
  return sortCards(hand || []).map((c) => {
    seen[c] = (seen[c] || 0) + 1;
    return { card: c, key: c + '#' + seen[c] };
  });
}

// cardValue is a card's points in hand (spec §2): an ace or a joker 15,
// a face card 10, other cards their number.
export function cardValue(c) {
  if (c === 'JK') return 15;
  const r = c.slice(0, -1);
  if (r === 'A') return 15;
  if (r === 'J' || r === 'Q' || r === 'K') return 10;
  return parseInt(r, 10) || 0;
}
const handValue = (cards) => (cards || []).reduce((s, c) => s + cardValue(c), 0);

// standsBadge marks a joker on the table with the card it stands for (its
// rank and suit, in the suit's colour).
function standsBadge(card) {
  if (!card || card === 'JK') return null;
  const suit = card.slice(-1);
  return h('span', {
    class: 'stands', 'data-testid': 'joker-stands', 'data-stands': card, 'aria-hidden': 'true',
    style: `position:absolute;left:50%;top:38%;transform:translateX(-50%);background:#fff;color:${SUIT_COLOR[suit] || '#222'};border:1px solid #b8341b;border-radius:6px;padding:0 .2rem;font-size:.78rem;font-weight:800;white-space:nowrap;line-height:1.25;`,
  }, card.slice(0, -1), suitIcon(suit, 11));
}

// ---- motion ----
//
// Every card on the table and in the hand has a motion name (dom.js flip),
// its card and which copy it is, counted over the pile, the melds and the
// hand in that order (namer): a card keeps its name when it moves from one
// to another, so a card taken from the pile slides into the hand or onto
// its meld, a card melded or laid off slides from the hand, a discard from
// the hand to the pile. Two copies of one card (two decks) look alike, so
// which of them slides does not matter. A card new on the table flies in
// from the seat that put it there; pile cards a bot takes into its hand
// fly to its seat.

// namer returns the naming function of one drawing of the table.
function namer() {
  const seen = {};
  return (card) => {
    seen[card] = (seen[card] || 0) + 1;
    return 'c' + card + '#' + seen[card];
  };
}

// lastOf is the seat of the newest history entry of a kind, or -1.
function lastOf(ctx, kind) {
  const hist = ctx.history || [];
  for (let i = hist.length - 1; i >= 0; i--) if (hist[i] && hist[i].kind === kind) return hist[i].seat;
  return -1;
}

const seatId = (s) => (s >= 0 ? 'seat-' + s : '');

// meldCard draws one card of a meld: its credit, and for a joker the card
// it stands for (on the face and in its name).
function meldCard(ctx, c, stands, owner) {
  const joker = c === 'JK';
  const name = joker ? t('rum500.joker_as', { card: cardName(stands) }) : cardName(c);
  const el = cardEl(c, {
    size: 'small', label: name + (owner !== undefined ? ' — ' + seatName(ctx, owner) : ''),
    who: owner !== undefined ? h('span', { class: 'own oc-' + owner, 'aria-hidden': 'true' }, String(owner + 1)) : null,
  });
  if (joker) {
    el.dataset.stands = stands || '';
    const b = standsBadge(stands);
    if (b) el.appendChild(b);
  }
  return el;
}

// ---- the end of a hand ----

// captureSummary keeps what the player needs to see when a hand ends: the
// state right after the last move of a hand shows every hand (shown_hands)
// before the next deal clears the table, and the history's `hand` entry
// says the same. The summary stays until the player closes it or the next
// hand's first move (ui.summary; ui.summaryClosed is the hand closed).
function captureSummary(ctx) {
  const v = ctx.view;
  const ui = ctx.ui;
  const rounds = v.round_scores || [];
  if (Array.isArray(v.shown_hands) && v.shown_hands.length && rounds.length && rounds.length === v.round) {
    if (!ui.summary || ui.summary.round !== v.round || ui.summary.from !== 'view') {
      ui.summaryReopened = false;
      ui.summary = {
        round: v.round, from: 'view', wentOut: v.went_out === undefined ? -1 : v.went_out,
        hands: v.shown_hands.map((x) => x || []), table: v.table_points || [], scores: rounds[rounds.length - 1],
        melds: melds(v), pile: pile(v),
      };
    }
    return;
  }
  // The history up to this state (the shell's ctx.history): its last
  // `hand` entry closes the latest finished hand, and an `out` entry
  // between it and the hand before names who went out.
  const hist = ctx.history || (ctx.state && ctx.state.history && ctx.state.history.entries) || [];
  let out = -1;
  let last = null;
  for (const e of hist) {
    if (!e) continue;
    if (e.kind === 'out') out = e.seat;
    if (e.kind === 'hand' && Array.isArray(e.scores) && Array.isArray(e.hands)) last = { e, out };
    if (e.kind === 'hand' || e.kind === 'deal') out = -1;
  }
  const round = rounds.length;
  if (last && round > 0 && (!ui.summary || ui.summary.round < round)) {
    const { e } = last;
    const bonus = +((v.options && v.options.go_out_bonus) || 0);
    ui.summaryReopened = false;
    ui.summary = {
      round, from: 'history', wentOut: last.out, hands: e.hands.map((x) => x || []), scores: e.scores,
      table: e.scores.map((x, s) => x + handValue(e.hands[s]) - (s === last.out ? bonus : 0)),
      melds: ui.lastMelds && ui.lastMelds.round === round ? ui.lastMelds.melds : [],
    };
  }
}

// summaryShown says whether the last hand's summary is on screen: not once
// the player closed it, nor after their first move of the next hand (a
// spectator's: after anyone's). Bots may open the next hand within a
// second; the summary must not vanish under the reader's eyes then.
function summaryShown(ctx) {
  const v = ctx.view;
  const s = ctx.ui.summary;
  if (!s || ctx.ui.summaryClosed === s.round) return false;
  if (v.round > s.round && !ctx.ui.summaryReopened) {
    const mine = ctx.seat >= 0 ? String(ctx.seat) + ' ' : '';
    if (v.round > s.round + 1 || (v.moves || []).some((m) => m.startsWith(mine))) {
      ctx.ui.summaryClosed = s.round;
      return false;
    }
  }
  return true;
}

function summaryBox(ctx) {
  const v = ctx.view;
  const ui = ctx.ui;
  const s = ui.summary;
  const n = v.players;
  const totals = v.totals || [];
  const rows = [];
  for (let i = 0; i < n; i++) {
    const left = sortCards(s.hands[i] || []);
    const sc = (s.scores || [])[i];
    // One body per player: the numbers, then the cards left across the
    // whole width (a phone has room for four narrow columns, not five).
    rows.push(h('tbody', { 'data-testid': 'summary-row', 'data-seat': i },
      h('tr', {},
        h('td', {}, h('strong', {}, seatName(ctx, i)), seatMark(ctx, i), i === s.wentOut ? [' ', h('span', { class: 'badge gold' }, t('rum500.out_badge'))] : null),
        h('td', { 'data-testid': 'summary-table-' + i }, String((s.table || [])[i] ?? '')),
        h('td', { 'data-testid': 'summary-score-' + i }, sc === undefined ? '' : `${sc > 0 ? '+' : ''}${sc}`),
        h('td', {}, totals[i] === undefined ? '' : String(totals[i]))),
      h('tr', {}, h('td', { colspan: '4', 'data-testid': 'summary-left-' + i },
        h('div', { style: 'display:flex;flex-wrap:wrap;gap:3px;align-items:center' },
          h('span', {}, t('rum500.col_left') + ':'),
          left.length ? left.map((c) => cardEl(c, { size: 'tiny', testid: 'left-card' })) : h('span', {}, t('rum500.none_left')),
          left.length ? h('span', {}, '−' + handValue(left)) : null)))));
  }
  const close = () => { ui.summaryClosed = s.round; ui.summaryReopened = false; ctx.rerender(); };
  const meldList = (s.melds || []).length ? h('div', { class: 'melds', 'data-testid': 'summary-melds', role: 'group', 'aria-label': t('rum500.final_table') },
    s.melds.map((m) => h('div', { class: 'meld', role: 'group', 'aria-label': t('rum500.meld_n', { n: m.number }) },
      h('div', { class: 'meld-title' }, t('rum500.meld_n', { n: m.number })),
      h('div', { class: 'meld-cards' }, (m.cards || []).map((c, j) => meldCard(ctx, c, (m.stands || [])[j], (m.owners || [])[j])))))) : null;
  return h('div', { class: 'offer', role: 'region', 'aria-label': t('rum500.summary_title', { n: s.round }), 'data-testid': 'hand-summary', 'data-round': s.round },
    h('h3', {}, t('rum500.summary_title', { n: s.round })),
    h('p', { 'data-testid': 'went-out' }, s.wentOut >= 0 ? t('rum500.went_out', { name: seatName(ctx, s.wentOut) }) : t('rum500.stock_ended')),
    h('div', { style: 'overflow-x:auto;max-width:100%' },
      h('table', { class: 'list', 'data-testid': 'summary-table' },
        h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, t('rum500.col_table')), h('th', {}, t('rum500.col_hand')), h('th', {}, t('final.total')))),
        rows)),
    // Open where there is room; on a phone the melds would push the hand
    // far down.
    meldList ? h('details', { open: window.matchMedia('(min-width: 520px)').matches }, h('summary', {}, t('rum500.final_table')), meldList) : null,
    h('div', { class: 'controls' },
      h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'dismiss-hand', onclick: close }, t('final.close'))));
}

// ---- the table ----

function render(ctx) {
  const v = ctx.view;
  const ui = ctx.ui;
  const me = ctx.seat;
  const legal = ctx.legal;
  const parsed = legal.map(parse);
  const hand = items(v.hand);
  const keys = new Set(hand.map((x) => x.key));
  ui.sel = (ui.sel || []).filter((k) => typeof k === 'string' && keys.has(k));
  const n = v.players;
  const hintSet = new Set(ctx.hint ? ctx.hint.split(' ').map((x) => tok(x).card).filter((x) => /^(\d+|[AJQK]|10)[SHDC]$|^JK$/.test(x)) : []);
  captureSummary(ctx);
  if (melds(v).length) ui.lastMelds = { round: v.round, melds: melds(v) };

  // Stock and discard pile, spread. A pile card is one take; its uses are
  // the legal moves that take it.
  const canDraw = legal.includes('draw');
  const p = pile(v);
  const takes = parsed.filter((m) => m.verb === 'take');
  const usesOf = (c) => takes.filter((m) => tok(m.x).card === c);
  // The chosen pile card, while it is still there and still takeable.
  if (ui.pileSel !== null && ui.pileSel !== undefined && (p[ui.pileSel] !== ui.pileCard || !usesOf(p[ui.pileSel] || '').length)) ui.pileSel = null;
  if (ui.pileSel === null || ui.pileSel === undefined) { ui.pileSel = null; ui.takeSel = []; }
  const taking = ui.pileSel !== null;
  ui.takeSel = (ui.takeSel || []).filter((i) => taking && i > ui.pileSel && i < p.length);
  const stock = h('div', { class: 'stock', 'data-testid': 'stock' },
    cardEl('back', {
      button: true, disabled: !canDraw, cls: canDraw ? 'playable' : '', testid: 'draw-stock', key: 'stock',
      label: t('rum500.draw_stock', { n: stockSize(v) }), onclick: canDraw ? () => ctx.move('draw') : undefined,
    }),
    h('span', {}, t('rum500.stock_n', { n: stockSize(v) })));
  const pileRow = h('div', { class: 'pile-spread', 'data-testid': 'pile', role: 'group', 'aria-label': t('rum500.pile') });
  const name = namer();
  // Pile cards leave it only by a take of the seat to act (or the pile
  // turned over): unseen, they fly to that seat.
  const taker = (ctx.toAct || [])[0];
  const takerId = taker !== undefined && taker !== me ? seatId(taker) : '';
  const discarder = seatId(lastOf(ctx, 'discard'));
  p.forEach((c, i) => {
    // With two decks a take takes the upper copy (the lower is not offered).
    const upper = p.slice(i + 1).includes(c);
    const uses = upper ? [] : usesOf(c);
    const ok = uses.length > 0;
    const above = p.length - 1 - i;
    const inTake = taking && i > ui.pileSel;
    pileRow.appendChild(flipEl(cardEl(c, {
      button: true, size: 'small', testid: 'pile-card', key: 'p' + i + c, disabled: !ok,
      cls: (ui.pileSel === i ? 'selected ' : '') + (inTake ? 'selected ' : '') + (ok ? 'playable' : ''),
      label: cardName(c) + (above ? ' — ' + t('rum500.above_n', { n: above }) : '') + (ok ? ' — ' + t('rum500.uses_n', { n: uses.length }) : ''),
      onclick: ok ? () => {
        ui.pileSel = ui.pileSel === i ? null : i;
        ui.pileCard = c;
        ui.takeSel = [];
        ui.sel = [];
        ui.choice = null;
        ctx.rerender();
      } : undefined,
    }), name(c), i === p.length - 1 && discarder !== seatId(me) ? discarder : '', takerId));
  });
  const center = h('div', { class: 'center', 'data-testid': 'center' },
    stock,
    h('div', {}, h('div', { class: 'meta' }, t('rum500.pile'), ` (${p.length})`), pileRow));

  // What the selection fits: cards from the hand, and while a take is being
  // built the pile card (always part of it) and any card that comes along.
  const x = taking ? p[ui.pileSel] : null;
  const selHand = hand.filter((it) => ui.sel.includes(it.key)).map((it) => it.card);
  const selected = taking ? [x, ...ui.takeSel.map((i) => p[i]), ...selHand] : selHand;
  const offers = taking ? usesOf(x) : [];
  const meldCands = taking
    ? offers.filter((m) => m.use === 'meld' && sameCards(handCards(m), selected))
    : (selected.length >= 3 ? parsed.filter((m) => m.verb === 'meld' && sameCards(handCards(m), selected)) : []);
  const layCands = taking
    ? (selected.length === 1 ? offers.filter((m) => m.use === 'layoff') : [])
    : (selected.length === 1 ? parsed.filter((m) => m.verb === 'layoff' && tok(m.cards[0]).card === selected[0]) : []);
  const choice = ui.choice && meldCands.length > 1 && sameCards(ui.choice, selected);

  // The offer for a card picked in the pile: the take, what comes along,
  // and its uses; the player builds the use by selecting cards as for any
  // meld, or picks one of the uses.
  if (taking) {
    const along = p.slice(ui.pileSel + 1);
    const useLabel = (m) => {
      if (m.use === 'meld') return t('rum500.use_meld', { cards: listNames(m.cards) }) + (aceEnd(m) ? ' (' + aceName(aceEnd(m)) + ')' : '');
      if (m.use === 'layoff') return t('rum500.use_layoff', { card: tokName(m.x), meld: m.meld }) + (m.end ? ' (' + endName(m.end) + ')' : '');
      return t('rum500.use_keep');
    };
    center.appendChild(h('div', { class: 'offer', 'data-testid': 'take-offer', role: 'group', 'aria-label': t('rum500.take_x', { card: cardName(x) }) },
      h('p', {}, t('rum500.take_x', { card: cardName(x) }), along.length ? ' ' + t('rum500.comes_along', { cards: along.map(cardName).join(', ') }) : ''),
      h('div', { class: 'row', 'data-testid': 'taken' },
        cardEl(x, { size: 'small', testid: 'taken-x', cls: 'selected', label: cardName(x) + ' — ' + t('rum500.must_use') }),
        along.map((c, j) => {
          const i = ui.pileSel + 1 + j;
          const on = ui.takeSel.includes(i);
          return cardEl(c, {
            button: true, size: 'small', testid: 'taken-card', key: 'tk' + i + c, pressed: on, cls: on ? 'selected' : '',
            onclick: () => { ui.takeSel = on ? ui.takeSel.filter((k) => k !== i) : [...ui.takeSel, i]; ui.choice = null; ctx.rerender(); },
          });
        })),
      h('p', {}, t('rum500.build_meld'), offers.some((m) => m.use === 'layoff') ? ' ' + t('rum500.build_layoff') : ''),
      h('p', {}, h('span', {}, t('rum500.its_uses'), ' '),
        offers.map((m, i) => h('button', {
          class: 'btn small', type: 'button', 'data-testid': 'take-option', 'data-key': 'to' + i, 'data-move': m.text,
          onclick: () => { ui.pileSel = null; ctx.move(m.text); },
        }, useLabel(m)))),
      h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'take-cancel', onclick: () => { ui.pileSel = null; ui.sel = []; ctx.rerender(); } }, t('table.cancel'))));
  }

  // Melds on the table, with who placed each card; the melds the selected
  // card can be laid off on are highlighted, each with its button(s).
  const meldBox = h('div', { class: 'melds', 'data-testid': 'melds', role: 'group', 'aria-label': t('rum500.melds') });
  melds(v).forEach((m) => {
    const num = m.number;
    const owners = m.owners || [];
    const targets = layCands.filter((c) => c.meld === num);
    const cards = m.cards || [];
    meldBox.appendChild(h('div', {
      class: 'meld' + (targets.length ? ' target' : ''), 'data-testid': 'meld-' + num, 'data-target': targets.length ? 'true' : undefined,
      role: 'group', 'aria-label': t('rum500.meld_n', { n: num }) + (targets.length ? ' — ' + t('rum500.can_lay') : ''),
    },
    h('div', { class: 'meld-title' }, t('rum500.meld_n', { n: num })),
    h('div', { class: 'meld-cards' }, cards.map((c, j) => flipEl(meldCard(ctx, c, (m.stands || [])[j], owners[j]), name(c), owners[j] !== me ? seatId(owners[j]) : ''))),
    targets.map((tm) => {
      const as = tok(tm.cards[0]).as;
      const detail = [as ? t('rum500.joker_as', { card: cardName(as) }) : '', tm.end ? endName(tm.end) : ''].filter(Boolean).join(', ');
      const label = t('rum500.layoff_here') + (detail ? ' (' + detail + ')' : '');
      return h('button', {
        class: 'btn small', type: 'button', 'data-move': tm.text,
        // Named with its meld: a screen reader lists the buttons apart.
        'aria-label': label + ' — ' + t('rum500.meld_n', { n: num }),
        'data-testid': 'layoff-' + num + (tm.end ? '-' + tm.end : '') + (as ? '-' + as : ''),
        onclick: () => { ui.pileSel = null; ctx.move(tm.text); },
      }, label);
    })));
  });
  if (!melds(v).length) meldBox.appendChild(h('p', { class: 'meta' }, t('rum500.no_melds')));
  else {
    const legend = [];
    for (let s = 0; s < n; s++) legend.push(h('span', { class: 'legend-item' }, h('span', { class: 'own oc-' + s }, String(s + 1)), ' ', seatName(ctx, s)));
    meldBox.prepend(h('div', { class: 'legend', 'data-testid': 'meld-legend' }, t('rum500.whose'), ' ', legend));
  }
  const table = h('div', {}, summaryShown(ctx) ? summaryBox(ctx) : null, center, meldBox);

  // Status.
  const turn = (ctx.toAct || [])[0];
  let status = '';
  let sub = '';
  if (ctx.status === 'finished' || v.phase === 'over') status = t('table.game_over');
  else if (turn === undefined) status = t('table.dealing');
  else if (turn === me) {
    status = t('table.your_turn');
    if (taking) sub = t('rum500.step_take');
    else if (canDraw || takes.length) sub = t('rum500.step_draw');
    else if (legal.includes('decline')) sub = t('rum500.step_decline');
    else sub = t('rum500.step_meld');
  } else status = t('table.turn_of', { name: seatName(ctx, turn) });
  sub = [sub, t('rum500.target', { n: target(ctx) })].filter(Boolean).join(' · ');

  // Hand and actions.
  let handArea = null;
  if (me >= 0 && v.hand) {
    const row = h('div', { class: handClass(hand.length), 'data-testid': 'hand', role: 'group', 'aria-label': handTitle(ctx) });
    const canAct = taking || parsed.some((m) => m.verb === 'meld' || m.verb === 'layoff' || m.verb === 'discard');
    hand.forEach((it) => {
      const sel = ui.sel.includes(it.key);
      row.appendChild(flipEl(cardEl(it.card, {
        testid: 'hand-card', key: 'h' + it.key, pressed: sel, disabled: !canAct,
        cls: (sel ? 'selected' : '') + (hintSet.has(it.card) ? ' playable' : ''),
        onclick: () => {
          ui.sel = sel ? ui.sel.filter((k) => k !== it.key) : [...ui.sel, it.key];
          ui.choice = null;
          ctx.rerender();
        },
      }), name(it.card)));
    });
    const discardMove = !taking && selected.length === 1 && legal.includes('discard ' + selected[0]) ? 'discard ' + selected[0] : null;
    const meldNow = () => {
      if (meldCands.length === 1) { ui.pileSel = null; ctx.move(meldCands[0].text); } else if (meldCands.length > 1) { ui.choice = [...selected]; ui.kind = null; ctx.rerender(); }
    };
    const suggestions = taking ? [] : parsed.filter((m) => m.verb === 'meld').slice(0, 6);
    const controls = h('div', { class: 'controls' },
      h('button', { class: 'btn', type: 'button', 'data-testid': 'meld-selected', disabled: !meldCands.length, onclick: meldNow }, t('rum500.meld_selected')),
      h('button', { class: 'btn', type: 'button', 'data-testid': 'discard', disabled: !discardMove, onclick: () => discardMove && ctx.move(discardMove) }, t('rum500.discard')),
      legal.includes('decline') ? h('button', { class: 'btn secondary', type: 'button', 'data-testid': 'decline', onclick: () => ctx.move('decline') }, t('rum500.decline')) : null,
      h('button', { class: 'btn secondary', type: 'button', 'data-testid': 'clear', disabled: !ui.sel.length, onclick: () => { ui.sel = []; ui.choice = null; ctx.rerender(); } }, t('table.clear')));
    // One selection, several melds: the choice in words; past
    // flatChoices of them, first the kind (a set of a rank, a run in a
    // suit), then the melds of that kind.
    const kinds = choice && meldCands.length > flatChoices ? meldKinds(meldCands) : null;
    const kind = kinds ? kinds.find((k) => k.key === ui.kind) : null;
    const shown = kinds ? (kind ? kind.items : null) : meldCands;
    const choiceBox = choice ? h('div', { class: 'offer', 'data-testid': 'meld-choices', role: 'group', 'aria-label': t('rum500.which_meld') },
      h('span', {}, (kind ? kind.label + ': ' : '') + t('rum500.which_meld'), ' '),
      shown ? shown.map((m, i) => h('button', {
        class: 'btn small', type: 'button', 'data-testid': 'meld-choice', 'data-key': 'mc' + i, 'data-move': m.text,
        onclick: () => { ui.choice = null; ui.kind = null; ui.pileSel = null; ctx.move(m.text); },
      }, listNames(m.cards) + (aceEnd(m) ? ' (' + aceName(aceEnd(m)) + ')' : ''))) : kinds.map((k) => h('button', {
        class: 'btn small', type: 'button', 'data-testid': 'meld-kind', 'data-key': 'mk' + k.key,
        onclick: () => { ui.kind = k.key; ctx.rerender(); },
      }, k.label + ' (' + k.items.length + ')')),
      kind ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'meld-kind-back', onclick: () => { ui.kind = null; ctx.rerender(); } }, t('nav.back')) : null,
      h('button', { class: 'btn small secondary', type: 'button', onclick: () => { ui.choice = null; ui.kind = null; ctx.rerender(); } }, t('table.cancel'))) : null;
    const helpLine = layCands.length ? h('p', { class: 'meta', 'data-testid': 'layoff-help' }, t('rum500.pick_meld')) : null;
    handArea = h('section', { class: 'hand-area', 'aria-label': handTitle(ctx) },
      h('h3', {}, handTitle(ctx), ` (${hand.length})`), row, controls, choiceBox, helpLine,
      suggestions.length ? h('div', { class: 'offer', 'data-testid': 'meld-suggestions' }, h('span', {}, t('rum500.can_meld'), ' '),
        suggestions.map((m, i) => h('button', { class: 'btn small', type: 'button', 'data-testid': 'meld-option', 'data-key': 'mo' + i, 'data-move': m.text, onclick: () => ctx.move(m.text) }, m.cards.map(tokName).join(' · ')))) : null);
  }

  const badges = [h('span', { class: 'badge', 'data-testid': 'hand-no' }, t('rum500.hand_n', { n: v.round || 1 }))];
  if (ui.summary && !summaryShown(ctx)) {
    badges.push(h('button', {
      class: 'btn small secondary', type: 'button', 'data-testid': 'show-last-hand',
      onclick: () => { ui.summaryClosed = null; ui.summaryReopened = true; ctx.rerender(); },
    }, t('rum500.last_hand')));
  }
  // The move log is the shell's history panel (describeEntry below).
  return { center: table, hand: handArea, status, sub, badges };
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
  for (let s = 0; s < n; s++) head.push(h('th', {}, seatName(ctx, s), seatMark(ctx, s)));
  return h('div', {},
    h('p', { class: 'meta' }, t('rum500.target', { n: target(ctx) }), jokersOn(ctx) ? ' · ' + t('rum500.with_jokers') : ''),
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

// describe says a 500 Rum move in words (the hint, the move log): draw,
// take (alone, with a meld or a lay-off), meld, layoff, discard, decline;
// a joker with the card it stands for.
function describe(text) {
  const m = parse(text);
  switch (m.verb) {
    case 'draw': return t('rum500.move.draw');
    case 'decline': return t('rum500.move.decline');
    case 'discard': return t('rum500.move.discard', { card: tokName(m.cards[0]) });
    case 'meld': return t('rum500.move.meld', { cards: listNames(m.cards) });
    case 'layoff': return t('rum500.move.layoff', { card: tokName(m.cards[0]), meld: m.meld }) + (m.end ? ' (' + endName(m.end) + ')' : '');
    case 'take':
      if (m.use === 'meld') return t('rum500.move.take_meld', { card: cardName(tok(m.x).card), cards: listNames(m.cards) });
      if (m.use === 'layoff') return t('rum500.move.take_layoff', { card: tokName(m.x), meld: m.meld }) + (m.end ? ' (' + endName(m.end) + ')' : '');
      return t('rum500.move.take', { card: cardName(m.x) });
    default: return undefined;
  }
}

// entryCards says the cards of a history entry in words; entry.as gives,
// for each joker in order, the card it stands for.
function entryCards(e) {
  const as = Array.isArray(e.as) ? e.as : [];
  let j = 0;
  return (Array.isArray(e.cards) ? e.cards : []).map((c) => {
    if (c === 'JK' && j < as.length) return t('rum500.joker_as', { card: cardName(as[j++]) });
    return cardName(c);
  }).join(', ');
}

// describeEntry says one entry of the public history (docs/protocol.md,
// "History") in the past tense; undefined leaves an unknown kind to the
// shell's generic text.
function describeEntry(e, ctx) {
  if (!e || typeof e !== 'object') return undefined;
  const name = seatName(ctx, e.seat);
  const cards = entryCards(e);
  const pts = +e.points || 0;
  const points = pts ? ' ' + t('rum500.hist.points', { n: pts }) : '';
  switch (e.kind) {
    case 'deal': return e.seat >= 0 ? t('rum500.hist.deal', { name }) : t('rum500.hist.deal_table');
    case 'draw': return t('rum500.hist.draw', { name });
    case 'take': {
      const count = +e.count || (Array.isArray(e.cards) ? e.cards.length : 0);
      return count > 1 ? t('rum500.hist.take_n', { name, n: count, cards }) : t('rum500.hist.take', { name, cards });
    }
    case 'meld': return t('rum500.hist.meld', { name, cards, points });
    case 'layoff': return t('rum500.hist.layoff', { name, cards, meld: +e.meld || 0, points });
    case 'discard': return t('rum500.hist.discard', { name, cards });
    case 'decline': return t('rum500.hist.decline', { name });
    case 'out': return t('rum500.hist.out', { name });
    case 'turn_over': return t('rum500.hist.turn_over', { n: +e.count || 0 });
    case 'hand': {
      const sc = Array.isArray(e.scores) ? e.scores : [];
      return t('rum500.hist.hand', { scores: sc.map((x, s) => `${seatName(ctx, s)} ${x > 0 ? '+' : ''}${x}`).join(' · ') });
    }
    default: return undefined;
  }
}

// rulesText is the rules of this table's options: its target, two-player
// hand, ties, taking the top card, going out, the end of the stock and the
// going-out bonus, and the jokers only when it plays with them. Without a
// table (options null) the rules say the defaults, each with a note of
// what a table may agree instead, and the jokers come under a "when the
// table plays with them" heading.
function rulesText(options) {
  const o = options || {};
  const bonus = parseInt(o.go_out_bonus, 10) || 0;
  const stock = { end_immediately: 'rum500.rules_stock_end', turn_over_discards: 'rum500.rules_stock_turn_over' };
  const text = t('rum500.rules', {
    target: o.target || '500', two_hand: o.two_player_hand || '13',
    tie_rule: ruleSaid(options, 'rum500.rules_tie', o.tie_resolution === 'play_on' ? 'rum500.rules_tie_play_on' : 'rum500.rules_tie'),
    take_rule: ruleSaid(options, 'rum500.rules_take', optionFlag(o.top_discard_free, false) ? 'rum500.rules_take_top_free' : 'rum500.rules_take'),
    stock_rule: ruleSaid(options, 'rum500.rules_stock', stock[o.stock_exhausted] || 'rum500.rules_stock'),
    out_rule: ruleSaid(options, 'rum500.rules_out', optionFlag(o.must_discard_to_go_out, false) ? 'rum500.rules_out_discard' : 'rum500.rules_out'),
    bonus_rule: bonus > 0 && options ? t('rum500.rules_bonus_n', { n: bonus }) : ruleSaid(options, 'rum500.rules_bonus', 'rum500.rules_bonus'),
  });
  const jokers = '\n\n## %s\n' + t('rum500.rules_jokers', {
    meld_rule: ruleSaid(options, 'rum500.rules_jokers_any', o.meld_jokers === 'one' ? 'rum500.rules_jokers_one' : 'rum500.rules_jokers_any'),
  });
  if (!options) return text + jokers.replace('%s', t('rum500.rules_jokers_maybe'));
  return +o.jokers > 0 ? text + jokers.replace('%s', t('rum500.rules_jokers_h')) : text;
}

export default register({
  name: 'rum500',
  icon: 'AS',
  render, seatInfo, scores, finalExtra, describe, describeEntry, rulesText,
  listOptions: ['target'],
});
