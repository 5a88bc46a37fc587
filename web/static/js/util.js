// Shared helpers for the table views.
import { h } from './dom.js';
import { cardSVG, parseCard, SUIT_COLOR } from './cards.js';
import { t, cardName } from './i18n.js';

// cardEl draws a card: a button when onclick is given, else an image.
// o.mark: a short label that marks the card (see cardSVG).
export function cardEl(card, o = {}) {
  const label = o.label || (card && card !== 'back' ? cardName(card) : t('card.hidden'));
  const cls = ['card', o.size || '', o.cls || ''].filter(Boolean).join(' ');
  const svg = cardSVG(card, { mark: o.mark });
  if (o.onclick || o.button) {
    return h('button', {
      class: cls, type: 'button', 'aria-label': label, title: label,
      'data-card': card, 'data-testid': o.testid, 'data-key': o.key,
      'aria-pressed': o.pressed === undefined ? undefined : String(!!o.pressed),
      disabled: o.disabled, 'aria-disabled': o.disabled ? 'true' : undefined,
      onclick: o.onclick,
    }, svg, o.who ? h('span', { class: 'who' }, o.who) : null);
  }
  return h('span', { class: cls, role: 'img', 'aria-label': label, title: label, 'data-card': card, 'data-testid': o.testid },
    svg, o.who ? h('span', { class: 'who' }, o.who) : null);
}

const SUIT_PATHS = {
  H: 'M50 92C22 68 2 50 2 28 2 12 14 2 28 2 39 2 46 9 50 18 54 9 61 2 72 2 86 2 98 12 98 28 98 50 78 68 50 92Z',
  D: 'M50 2 88 50 50 98 12 50Z',
  S: 'M50 2C78 26 98 42 98 62 98 76 87 86 73 86 63 86 56 81 53 75 55 86 60 93 70 99H30C40 93 45 86 47 75 44 81 37 86 27 86 13 86 2 76 2 62 2 42 22 26 50 2Z',
  C: 'M50 4A21 21 0 1 0 50 46 21 21 0 1 0 50 4ZM27 36A21 21 0 1 0 27 78 21 21 0 1 0 27 36ZM73 36A21 21 0 1 0 73 78 21 21 0 1 0 73 36ZM46 50C46 72 41 88 31 99H69C59 88 54 72 54 50Z',
};

// suitIcon draws a suit symbol as an inline SVG.
export function suitIcon(s, size = 18) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('width', size);
  svg.setAttribute('height', size);
  svg.setAttribute('aria-hidden', 'true');
  svg.style.verticalAlign = 'middle';
  const p = document.createElementNS(NS, 'path');
  p.setAttribute('d', SUIT_PATHS[s] || '');
  p.setAttribute('fill', SUIT_COLOR[s] || '#333');
  svg.appendChild(p);
  return svg;
}

export function suitOf(c) { return c === 'JK' ? '' : parseCard(c).suit; }
export function rankOf(c) { return c === 'JK' ? 'JK' : parseCard(c).rank; }

// flipEl names a card for the table's motion (dom.js flip): the same name
// before and after a change slides the card from its old place; from is
// the test id it flies in from when it is new on the table (a bot's seat),
// to the test id it flies to when it leaves it unseen (a bot's take).
export function flipEl(el, name, from, to) {
  el.dataset.flip = name;
  if (from) el.dataset.flipFrom = from;
  if (to) el.dataset.flipTo = to;
  return el;
}

// sameCards compares two card lists as multisets.
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort().join(' ');
  const y = [...b].sort().join(' ');
  return x === y;
}

export function seatName(ctx, s) {
  if (s === undefined || s === null || s < 0) return '';
  const seat = (ctx.seats || []).find((x) => x.seat === s);
  let n = seat && seat.name ? seat.name : t('seat.n', { n: s + 1 });
  if (n.startsWith('bot:')) n = t('bot.name', { level: t('level.' + n.slice(4)), n: s + 1 });
  return s === ctx.seat ? t('seat.you', { name: n }) : n;
}
