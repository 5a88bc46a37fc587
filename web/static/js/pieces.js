// The pieces every table view is drawn with: a card as a button or an
// image with its accessible name, the name of a seat, and the names the
// table's motion follows a card by.
import { h } from './dom.js';
import { cardSVG } from './cards.js';
import { t, cardName } from './i18n.js';

// cardEl draws a card: a button when onclick is given, else an image.
// o.mark: a short label that marks the card (see cardSVG).
export function cardEl(card, o = {}) {
  const label = o.label || (card && card !== 'back' ? cardName(card) : t('card.hidden'));
  const cls = ['card', o.size || '', o.cls || ''].filter(Boolean).join(' ');
  const svg = cardSVG(card, { mark: o.mark });
  if (o.onclick || o.button) {
    // A hand card that cannot be played now stays focusable (aria-disabled,
    // not disabled), so a keyboard player reaches every card of the hand
    // and hears why it cannot be played (its name, and Enter shows the
    // reason: table.js explainKey); the hand is one Tab stop anyway
    // (keys.js roveHand). Other cards (a pile's) are plain disabled.
    const soft = o.disabled && o.testid === 'hand-card';
    return h('button', {
      class: cls, type: 'button', 'aria-label': label, title: label,
      'data-card': card, 'data-testid': o.testid, 'data-key': o.key,
      'aria-pressed': o.pressed === undefined ? undefined : String(!!o.pressed),
      disabled: o.disabled && !soft, 'aria-disabled': o.disabled ? 'true' : undefined,
      onclick: o.disabled ? undefined : o.onclick,
    }, svg, o.who ? h('span', { class: 'who' }, o.who) : null);
  }
  return h('span', { class: cls, role: 'img', 'aria-label': label, title: label, 'data-card': card, 'data-testid': o.testid },
    svg, o.who ? h('span', { class: 'who' }, o.who) : null);
}

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

// accountMark marks a seat whose player held an account when they sat
// down (s.account; a bot account has its BOT badge instead), or a player
// of who is online who holds one: the name is theirs. A guest's seat has
// none, so a guest who took a name before its owner claimed it does not
// pass for them (docs/accounts.md).
export function accountMark(s, testid) {
  if (!s || !s.account || s.bot_account || (s.kind && s.kind !== 'human')) return null;
  return h('span', { class: 'account-mark', title: t('table.account_title'), 'aria-label': t('table.account_title'), 'data-testid': testid }, '\u2713');
}

// seatMark is accountMark for seat s of the table or replay on screen,
// beside its name where a list names the players (score sheets, a
// round's summary, the final scores).
export function seatMark(ctx, s) {
  return accountMark((ctx.seats || []).find((x) => x.seat === s));
}

// botBadge is a bot account's BOT badge (a program plays as that player).
export function botBadge(testid) {
  return h('span', { class: 'badge bot-account', title: t('table.bot_account_title'), 'data-testid': testid }, t('table.bot_account'));
}

// seatName is how a seat is called at the table: its player's name, a
// bot's level, or "Seat n" when empty; the viewer's own seat says so.
export function seatName(ctx, s) {
  if (s === undefined || s === null || s < 0) return '';
  const seat = (ctx.seats || []).find((x) => x.seat === s);
  let n = seat && seat.name ? seat.name : t('seat.n', { n: s + 1 });
  if (n.startsWith('bot:')) n = t('bot.name', { level: t('level.' + n.slice(4)), n: s + 1 });
  return s === ctx.seat && !ctx.others ? t('seat.you', { name: n }) : n;
}

// handTitle names the hand shown at the bottom: "Your hand", or, in a
// replay seen from another player's seat (ctx.others), that player's.
export function handTitle(ctx) {
  return ctx.others ? t('table.hand_of', { name: seatName(ctx, ctx.seat) }) : t('table.your_hand');
}
