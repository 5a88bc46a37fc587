// Keyboard shortcuts. In the hand, the arrow keys move between the cards
// (Home and End to the first and last): the hand is one Tab stop (a roving
// tabindex: only its current card takes Tab), not twenty; in a replay,
// elsewhere, they step; at a table "h" asks for a hint. Everything else is
// plain buttons, reached with Tab.
import { onRoute } from './app.js';
import { stepReplay } from './views/replay.js';

// moveInHand moves the focus from one hand card to another, or returns
// false when the focus is not on a hand card.
function moveInHand(e) {
  const card = e.target && e.target.closest && e.target.closest('[data-testid=hand-card]');
  const hand = card && card.closest('[data-testid=hand]');
  if (!hand) return false;
  // Every card takes the focus, those that cannot be played too (they say
  // why: aria-disabled, not disabled).
  const cards = [...hand.querySelectorAll('[data-testid=hand-card]')].filter((c) => c === card || !c.disabled);
  const i = cards.indexOf(card);
  let j;
  if (e.key === 'ArrowRight' || e.key === 'ArrowDown') j = Math.min(cards.length - 1, i + 1);
  else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') j = Math.max(0, i - 1);
  else if (e.key === 'Home') j = 0;
  else if (e.key === 'End') j = cards.length - 1;
  else return false;
  cards[j].focus();
  roveHand();
  return true;
}

// roveKey is the data-key of the hand's current card (the one Tab reaches).
let roveKey = null;

// roveHand gives the hand's current card tabindex 0 and the others -1
// (after every drawing of the table, which does not keep them): the focused
// card, else the last current one if it is still there, else the first
// playable card.
export function roveHand() {
  const hand = document.querySelector('[data-testid=hand]');
  if (!hand) return;
  const cards = [...hand.querySelectorAll('[data-testid=hand-card]')];
  if (!cards.length) return;
  const playable = (c) => !c.disabled && c.getAttribute('aria-disabled') !== 'true';
  const cur = cards.find((c) => c === document.activeElement) || cards.find((c) => c.dataset.key === roveKey) ||
    cards.find(playable) || cards[0];
  for (const c of cards) {
    const v = c === cur ? '0' : '-1';
    if (c.getAttribute('tabindex') !== v) c.setAttribute('tabindex', v);
  }
  roveKey = cur.dataset.key || null;
}

// A card focused by the pointer (or by the page after a move) becomes the
// hand's current card.
document.addEventListener('focusin', (e) => {
  if (e.target && e.target.closest && e.target.closest('[data-testid=hand] [data-testid=hand-card]')) roveHand();
});

export function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT' || e.target.tagName === 'TEXTAREA')) return;
  if (moveInHand(e)) { e.preventDefault(); return; }
  if (onRoute('replay')) {
    if (e.key === 'ArrowRight' && stepReplay(1)) e.preventDefault();
    if (e.key === 'ArrowLeft' && stepReplay(-1)) e.preventDefault();
  }
  if (onRoute('table') && e.key === 'h') {
    const b = document.querySelector('[data-testid=hint]');
    if (b) b.click();
  }
}
