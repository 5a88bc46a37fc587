// Cards drawn as SVG from their notation ("7H", "10S", "13P", "JK").
// Nothing is fetched: every card face is built here from rank and suit.

const NS = 'http://www.w3.org/2000/svg';

export const SUIT_COLOR = { S: '#1b1b1f', H: '#c62828', D: '#1f5fbf', C: '#2e7d32', P: '#7b2fa8' };
export const SUIT_ORDER = { S: 0, H: 1, D: 2, C: 3, P: 4 };
const RANK_VALUE = { A: 1, J: 11, Q: 12, K: 13 };

// Suit shapes in a 100×100 box.
const SUIT_PATH = {
  H: 'M50 92C22 68 2 50 2 28 2 12 14 2 28 2 39 2 46 9 50 18 54 9 61 2 72 2 86 2 98 12 98 28 98 50 78 68 50 92Z',
  D: 'M50 2 88 50 50 98 12 50Z',
  S: 'M50 2C78 26 98 42 98 62 98 76 87 86 73 86 63 86 56 81 53 75 55 86 60 93 70 99H30C40 93 45 86 47 75 44 81 37 86 27 86 13 86 2 76 2 62 2 42 22 26 50 2Z',
  C: 'M50 4A21 21 0 1 0 50 46 21 21 0 1 0 50 4ZM27 36A21 21 0 1 0 27 78 21 21 0 1 0 27 36ZM73 36A21 21 0 1 0 73 78 21 21 0 1 0 73 36ZM46 50C46 72 41 88 31 99H69C59 88 54 72 54 50Z',
  P: starPath(50, 50, 48, 22, 7),
};

function starPath(cx, cy, R, r, n) {
  let d = '';
  for (let i = 0; i < 2 * n; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / n;
    const rad = i % 2 ? r : R;
    d += (i ? 'L' : 'M') + (cx + rad * Math.cos(a)).toFixed(1) + ' ' + (cy + rad * Math.sin(a)).toFixed(1);
  }
  return d + 'Z';
}

// parseCard("10S") → {rank:"10", suit:"S"}; "JK" → {rank:"JK", suit:""}.
export function parseCard(c) {
  if (c === 'JK') return { rank: 'JK', suit: '' };
  return { rank: c.slice(0, -1), suit: c.slice(-1) };
}

export function rankValue(rank) {
  return RANK_VALUE[rank] || parseInt(rank, 10) || 0;
}

// Sort order of the notation: suit S H D C P, rank ascending, jokers last.
export function cardKey(c) {
  const { rank, suit } = parseCard(c);
  if (rank === 'JK') return 1000;
  return SUIT_ORDER[suit] * 100 + rankValue(rank);
}

export function sortCards(cards) {
  return [...cards].sort((a, b) => cardKey(a) - cardKey(b));
}

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function pip(g, suit, x, y, size, flip) {
  const s = size / 100;
  el('path', {
    d: SUIT_PATH[suit],
    fill: SUIT_COLOR[suit],
    transform: `translate(${x - size / 2} ${y - size / 2}) ${flip ? `rotate(180 ${size / 2} ${size / 2})` : ''} scale(${s})`,
  }, g);
}

// Pip positions for 2..10 in a unit box (x 0..1, y 0..1).
const LAYOUT = {
  1: [[0.5, 0.5]],
  2: [[0.5, 0], [0.5, 1]],
  3: [[0.5, 0], [0.5, 0.5], [0.5, 1]],
  4: [[0, 0], [1, 0], [0, 1], [1, 1]],
  5: [[0, 0], [1, 0], [0.5, 0.5], [0, 1], [1, 1]],
  6: [[0, 0], [1, 0], [0, 0.5], [1, 0.5], [0, 1], [1, 1]],
  7: [[0, 0], [1, 0], [0.5, 0.25], [0, 0.5], [1, 0.5], [0, 1], [1, 1]],
  8: [[0, 0], [1, 0], [0.5, 0.25], [0, 0.5], [1, 0.5], [0.5, 0.75], [0, 1], [1, 1]],
  9: [[0, 0], [1, 0], [0, 1 / 3], [1, 1 / 3], [0.5, 0.5], [0, 2 / 3], [1, 2 / 3], [0, 1], [1, 1]],
  10: [[0, 0], [1, 0], [0.5, 1 / 6], [0, 1 / 3], [1, 1 / 3], [0, 2 / 3], [1, 2 / 3], [0.5, 5 / 6], [0, 1], [1, 1]],
};

// cardSVG draws the face of a card (or its back when card is "" or "back").
// opts.mark: a short label (a game's special card, e.g. the seven worth 40
// points): the face is highlighted and the label written at its foot.
//
// A face is built once (a score of elements with their attributes) and
// copied after that; the copy carries data-face, which tells dom.js's
// morph that a live card with the same data-face is equal already. The
// table is drawn anew for every state with every card of the hand: in a
// whole Papayoo game (TestPapayooWholeGame, the page's CPU profile)
// building the faces and comparing them with the live ones took 3.3 of
// 6.6 s of script; copied and skipped, 1.9 of 4.5 s (docs/client.md,
// "Drawing"). A sprite of <symbol>s that each card <use>s cut the script
// more, but the browser's style and layout work grew by as much. The
// faces are bounded: 55 cards and the back, times the games' few marks.
const faces = new Map();
export function cardSVG(card, opts = {}) {
  const key = (card && card !== 'back' ? card : 'back') + (opts.mark ? '|' + opts.mark : '');
  let face = faces.get(key);
  if (!face) {
    face = buildFace(card, opts);
    face.setAttribute('data-face', key);
    faces.set(key, face);
  }
  return face.cloneNode(true);
}

function buildFace(card, opts) {
  const svg = el('svg', { viewBox: '0 0 100 140', class: 'card-svg', 'aria-hidden': 'true', focusable: 'false' });
  if (!card || card === 'back') {
    el('rect', { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: '#fff', stroke: '#9aa', 'stroke-width': 1.5 }, svg);
    el('rect', { x: 7, y: 7, width: 86, height: 126, rx: 6, fill: '#1d4e6e' }, svg);
    const g = el('g', { stroke: '#6fb3d9', 'stroke-width': 1.2, fill: 'none', opacity: 0.75 }, svg);
    for (let i = 0; i < 7; i++) el('rect', { x: 14 + i * 2, y: 14 + i * 2, width: 72 - i * 4, height: 112 - i * 4, rx: 4 }, g).setAttribute('opacity', 0.25 + (i % 2) * 0.3);
    pip(svg, 'P', 50, 70, 30, false);
    svg.lastChild.setAttribute('fill', '#f2c14e');
    return svg;
  }
  const { rank, suit } = parseCard(card);
  const face = opts.mark ? '#fff4cf' : '#fffdf8';
  el('rect', { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: face, stroke: opts.mark ? '#d4a017' : '#8a8f98', 'stroke-width': opts.mark ? 3 : 1.5 }, svg);
  if (rank === 'JK') {
    const col = '#b8341b';
    const t = el('text', { x: 50, y: 30, 'text-anchor': 'middle', 'font-size': 17, 'font-weight': 700, fill: col, 'font-family': 'system-ui, sans-serif', 'letter-spacing': 2 }, svg);
    t.textContent = 'JOKER';
    const g = el('g', {}, svg);
    el('path', { d: starPath(50, 78, 30, 13, 5), fill: '#f2c14e', stroke: col, 'stroke-width': 2 }, g);
    el('circle', { cx: 50, cy: 78, r: 7, fill: col }, g);
    const b = el('text', { x: 50, y: 128, 'text-anchor': 'middle', 'font-size': 17, 'font-weight': 700, fill: '#1d4e6e', 'font-family': 'system-ui, sans-serif', 'letter-spacing': 2 }, svg);
    b.textContent = '★';
    return svg;
  }
  const col = SUIT_COLOR[suit] || '#333';
  // corner indices
  for (const flip of [false, true]) {
    const g = el('g', flip ? { transform: 'rotate(180 50 70)' } : {}, svg);
    const t = el('text', {
      x: rank.length > 1 ? 13 : 12, y: 24, 'text-anchor': 'middle', 'font-size': rank.length > 1 ? 17 : 21,
      'font-weight': 700, fill: col, 'font-family': 'system-ui, sans-serif', 'letter-spacing': rank.length > 1 ? -1.5 : 0,
    }, g);
    t.textContent = rank;
    pip(g, suit, 12, 36, 13, false);
  }
  const n = rankValue(rank);
  if (suit === 'P') {
    // Payoo: a big star with its value.
    el('path', { d: starPath(50, 70, 36, 17, 7), fill: col, opacity: 0.18 }, svg);
    const t = el('text', { x: 50, y: 84, 'text-anchor': 'middle', 'font-size': 40, 'font-weight': 800, fill: col, 'font-family': 'system-ui, sans-serif' }, svg);
    t.textContent = rank;
    const p = el('text', { x: 50, y: 110, 'text-anchor': 'middle', 'font-size': 11, 'font-weight': 700, fill: col, 'font-family': 'system-ui, sans-serif', 'letter-spacing': 1.5 }, svg);
    p.textContent = 'PAYOO';
  } else if (rank === 'J' || rank === 'Q' || rank === 'K') {
    el('rect', { x: 24, y: 22, width: 52, height: 96, rx: 5, fill: 'none', stroke: col, 'stroke-width': 1.5 }, svg);
    el('rect', { x: 27, y: 25, width: 46, height: 90, rx: 4, fill: col, opacity: 0.08 }, svg);
    const t = el('text', { x: 50, y: 82, 'text-anchor': 'middle', 'font-size': 44, 'font-weight': 800, fill: col, 'font-family': 'Georgia, serif' }, svg);
    t.textContent = rank;
    pip(svg, suit, 50, 37, 16, false);
    pip(svg, suit, 50, 103, 16, true);
  } else if (n === 1) {
    pip(svg, suit, 50, 70, rank === 'A' ? 44 : 36, false);
  } else if (LAYOUT[n]) {
    for (const [px, py] of LAYOUT[n]) pip(svg, suit, 32 + px * 36, 30 + py * 80, n >= 9 ? 15 : 17, py > 0.5);
  }
  if (opts.mark) {
    const b = el('text', { x: 50, y: 136, 'text-anchor': 'middle', 'font-size': 9, 'font-weight': 800, fill: '#9a6b00', 'font-family': 'system-ui, sans-serif' }, svg);
    b.textContent = opts.mark;
  }
  return svg;
}

// suitIcon draws a suit symbol as an inline SVG.
export function suitIcon(s, size = 18) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('width', size);
  svg.setAttribute('height', size);
  svg.setAttribute('aria-hidden', 'true');
  svg.style.verticalAlign = 'middle';
  const p = document.createElementNS(NS, 'path');
  p.setAttribute('d', SUIT_PATH[s] || '');
  p.setAttribute('fill', SUIT_COLOR[s] || '#333');
  svg.appendChild(p);
  return svg;
}

export function suitOf(c) { return c === 'JK' ? '' : parseCard(c).suit; }
export function rankOf(c) { return c === 'JK' ? 'JK' : parseCard(c).rank; }

// sameCards compares two card lists as multisets.
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort().join(' ');
  const y = [...b].sort().join(' ');
  return x === y;
}

// handClass is the class of a hand row of n cards: 'many' (over ten)
// overlaps the cards everywhere; 'few' (five or less) spreads them out on
// a phone, where a hand otherwise overlaps so that eight fit one row: the
// last cards of a hand are the ones a thumb should not miss.
export function handClass(n) {
  return 'hand' + (n > 10 ? ' many' : n <= 5 ? ' few' : '');
}
