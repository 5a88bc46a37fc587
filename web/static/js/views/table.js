// The table: seats, the game's own part (from its module), scores, the
// move history, rules and tips, the hint, the turn clock, the waiting room
// and the final scores. States are paced (see "pacing") and the page is
// patched in place (dom.js morph), so cards move instead of flickering.
import { h, replace, morph, flipRects, flip, finishAll } from '../dom.js';
import { t, renderRich } from '../i18n.js';
import { seatName, seatMark, cardEl, accountMark, botBadge } from '../pieces.js';
import { app, send, go, onRoute, tableData, mainState, levels, joinTable, toast, announce } from '../app.js';
import { game, gameTitle, helpText, describeMove } from '../games.js';
import { mergeHistory, historyPanel, keepScrolled, describeEntry } from '../history.js';
import { optionsBox } from '../options.js';
import { tone } from '../sound.js';
import { roveHand } from '../keys.js';
import { chatPanel, hookChat, rematchFinal } from '../chat.js';
import { ratingChange } from '../ratingchange.js';

// ctxFor is what a game module's functions get: the state and view, the
// legal moves (none when read-only), and how to move and re-render.
export function ctxFor(st, tb, readonly, rerender) {
  return {
    state: st, view: st.view || {}, legal: readonly ? [] : (st.legal || []), seat: st.seat, seats: st.seats || [],
    toAct: st.to_act || [], options: st.options || {}, game: st.game, ui: tb.ui, readonly,
    result: st.result, status: st.status,
    move: (text) => sendMove(st, text),
    rerender,
    notify: (text) => toast(text, false),
    pace: { trick: null, fresh: [] },
    history: [],
    hint: tb.ui.hint && tb.ui.hint.seat === st.seat ? bestHint(tb.ui.hint) : null,
  };
}

function bestHint(hm) {
  const r = [...(hm.ratings || [])];
  if (!r.length) return null;
  r.sort((a, b) => (b.value - a.value) || ((b.visits || 0) - (a.visits || 0)));
  return r[0].move;
}

// sendMove sends one move; until the server answers and the next state
// arrives, further moves are ignored (no double plays from a double click).
function sendMove(st, text) {
  const msg = { type: 'move', table: st.table, move: text };
  const tb = tableData(st.table);
  if (tb.ui.pending && Date.now() - tb.ui.pending.at < 5000) return;
  const mySeats = [...tb.states.keys()].filter((s) => s >= 0);
  if (mySeats.length > 1) msg.seat = st.seat;
  tb.ui.hint = null;
  tb.ui.pending = { seq: st.seq, at: Date.now() };
  send(msg, (ans) => {
    if (ans.type === 'ack') tb.ui.sel = [];
    else tb.ui.pending = null;
  });
}

// renderGame runs the game module's render, showing an error in its place
// rather than breaking the page.
export function renderGame(mod, ctx) {
  try {
    return mod ? mod.render(ctx) : { center: h('pre', {}, JSON.stringify(ctx.view, null, 1)) };
  } catch (err) {
    console.error(err);
    return { center: h('pre', { class: 'panel' }, String(err && err.stack || err)) };
  }
}

// ---------- pacing ----------
//
// State messages are not drawn the moment they arrive: each waits in a
// queue until the one on screen has been seen. What a state brings is read
// from the history entries it adds (the `history` field of state messages):
// a finished trick stays TRICK_MS with its winner marked, another seat's
// move MOVE_MS, anything else not at all. When the queue holds more than
// LAG_MS of pauses they shrink in proportion, and no state waits more than
// LAG_MS after it arrived, so the page never falls more than a few seconds
// behind; a click or a key skips the current pause; a
// state in which the player must act is never held once a newer one is
// there, and nothing is paused after it: the player is never kept waiting
// by the pacing itself.

// PACE scales the pauses: 1 for people; a test that is not about pacing
// sets window.CARDROOM_PACE (0.01–1) before the page loads, so a whole
// game against bots does not take minutes of browser time.
export const PACE = (() => {
  const p = Number(globalThis.CARDROOM_PACE);
  return p >= 0.01 && p <= 1 ? p : 1;
})();
export const TRICK_MS = 1500 * PACE;
export const MOVE_MS = 400 * PACE;
export const LAG_MS = 6000 * PACE;

function paceOf(tb) {
  if (!tb.pace) tb.pace = { shown: null, shownAt: 0, hold: 0, trick: null, trickUntil: 0, fresh: [], queue: [], timer: null };
  return tb.pace;
}

// holdFor is how long an entry keeps its state on screen: the game module
// may say (holdFor(entry, seat)), else a trick TRICK_MS and another seat's
// move MOVE_MS. The replay paces its play with it (views/replay.js).
export function holdFor(mod, e, me) {
  if (mod && mod.holdFor) {
    const v = mod.holdFor(e, me);
    if (typeof v === 'number') return v * PACE;
  }
  if (e.kind === 'trick') return TRICK_MS;
  if (e.kind === 'deal' || e.kind === 'shuffle') return 0;
  if (e.seat >= 0 && e.seat !== me) return MOVE_MS;
  return 0;
}

// annotate notes on a state what it brings, once: its history length, its
// arrival time (the clock counts from it), its fresh entries and the pause
// they earn. prev is the state before it on this seat's screen.
function annotate(tb, st, prev) {
  if (st.__hlen === undefined) { st.__hlen = mergeHistory(tb, st); st.__at = Date.now(); }
  if (st.__hold !== undefined) return;
  const mod = game(st.game);
  const from = prev && prev.__hlen !== undefined ? prev.__hlen : st.__hlen;
  const fresh = (tb.history || []).slice(from, st.__hlen).filter(Boolean);
  let hold = 0;
  let trick = null;
  for (const e of fresh) {
    hold = Math.max(hold, holdFor(mod, e, st.seat));
    if (e.kind === 'trick') trick = e;
  }
  // A server without history: a trick that closed shows in the view's list
  // of finished tricks.
  if (!fresh.length && prev && prev.view && st.view && Array.isArray(st.view.tricks) && Array.isArray(prev.view.tricks) && st.view.tricks.length > prev.view.tricks.length) hold = TRICK_MS;
  st.__fresh = fresh;
  st.__hold = hold;
  st.__trick = trick;
}

// absorb takes in what arrived since the last call: history entries of
// every seat's state, and the state on screen's successor into the queue.
function absorb(tb) {
  for (const st of tb.states.values()) if (st.__hlen === undefined) { st.__hlen = mergeHistory(tb, st); st.__at = Date.now(); }
  const p = paceOf(tb);
  const latest = mainState(tb);
  if (!latest) return p;
  const last = p.queue.length ? p.queue[p.queue.length - 1] : p.shown;
  const back = p.route !== app.route; // the player came (back) to this table
  p.route = app.route;
  if (latest === last && !back) return p;
  // A state that re-sends history the page has is the whole history a
  // (re)watch brings, not a step.
  const snapshot = !!(latest.history && last && last.__hlen !== undefined && latest.history.from < last.__hlen);
  if (back || snapshot || !p.shown || latest.seat !== p.shown.seat || latest.table !== p.shown.table || (last && latest.seq < last.seq)) {
    // A new table, seat or a fresh start (a reload, a reconnection, coming
    // back to the table): show it at once, without replaying what came
    // before.
    p.queue = [];
    latest.__hold = 0;
    latest.__fresh = [];
    latest.__trick = null;
    show(tb, p, latest);
    return p;
  }
  annotate(tb, latest, last);
  p.queue.push(latest);
  turnAlert(tb, last, latest);
  return p;
}

function show(tb, p, st) {
  p.shown = st;
  p.shownAt = Date.now();
  p.hold = st.__hold || 0;
  p.trick = st.__trick || null;
  p.trickUntil = p.trick ? p.shownAt + Math.max(p.hold, TRICK_MS) * lagScale(p) : 0;
  p.fresh = st.__fresh || [];
  const ctx = p.fresh.length ? ctxFor(st, tb, true, renderTable) : null;
  for (const e of p.fresh) {
    if (e.by === 'timeout') {
      tb.ui.notice = { text: t('table.timeout_notice', { name: seatName(ctx, e.seat), what: describeEntry(st.game, e, ctx) }), until: Date.now() + 8000 };
    }
  }
  // What just happened, for screen readers: the status line says only
  // whose turn it is, and the history list is not a live region.
  if (p.fresh.length) announce(p.fresh.map((e) => describeEntry(st.game, e, ctx)).join(' '));
}

// lagScale shrinks the pauses when the queue holds more than LAG_MS of
// them.
function lagScale(p) {
  let pending = p.hold;
  for (const s of p.queue) pending += s.__hold || 0;
  return pending > LAG_MS ? LAG_MS / pending : 1;
}

// dueAt is when the next queued state goes on screen: when the pause of
// the one on screen (shrunk by lagScale) is over, and at the latest LAG_MS
// after the next one arrived.
function dueAt(p) {
  return Math.min(p.shownAt + p.hold * lagScale(p), (p.queue[0].__at || 0) + LAG_MS);
}

// ---------- drawing ----------
//
// A state message is taken in at once (absorb: its history, its place in
// the pacing queue), but the table is drawn at most once an animation
// frame (tableChanged): under a fast game the messages come far quicker
// than a screen shows them, and drawing each one took most of the page's
// time. After each draw the table holds the rest of the frame (holdFrame):
// a message then only marks a draw pending, done when the next frame
// begins. A message outside such a frame is drawn at once, so a lone move
// shows without waiting. A draw asked for by the player (a click, a key,
// the route) is done at once (renderTable) and takes the pending one's
// place. A hidden tab gets no animation frames, so a timer ends the frame
// after FRAME_MAX_MS at the latest (browsers slow it to once a second
// there).
const FRAME_MAX_MS = 100;

// tableChanged is called for each state or hint message of the table on
// screen: the message is taken in now, the table drawn now or, within a
// frame that has been drawn already, when the next one begins.
export function tableChanged() {
  const tb = tableData(app.route.id);
  hookChat();
  listen();
  absorb(tb);
  drawSoon(tb, paceOf(tb));
}

// drawSoon draws the table now, or, within a frame that has been drawn
// already, when the next one begins.
function drawSoon(tb, p) {
  if (p.frame) p.frame.pending = true;
  else pump(tb);
}

// holdFrame starts the frame after a draw: until it ends, messages wait
// (tableChanged); when it ends, a pending draw is done, which holds the
// next frame.
function holdFrame(tb, p) {
  const id = app.route.id;
  const end = () => {
    const pending = !!p.frame && p.frame.pending;
    cancelFrame(p);
    if (pending && onRoute('table', id)) pump(tb);
  };
  p.frame = { pending: false, raf: requestAnimationFrame(end), timer: setTimeout(end, FRAME_MAX_MS) };
}

function cancelFrame(p) {
  if (!p.frame) return;
  cancelAnimationFrame(p.frame.raf);
  clearTimeout(p.frame.timer);
  p.frame = null;
}

// pump shows queued states whose turn has come and draws the table. A
// state's time on screen counts from the end of its drawing: on a slow
// machine a long draw does not eat the pause.
function pump(tb) {
  const p = paceOf(tb);
  cancelFrame(p); // drawn now: what was pending is in this draw
  clearTimeout(p.timer);
  p.timer = null;
  let shown = false;
  while (p.queue.length) {
    const mine = p.shown && (p.shown.legal || []).length > 0;
    if (!mine && !p.skip && Date.now() < dueAt(p)) break;
    p.skip = false;
    show(tb, p, p.queue.shift());
    shown = true;
  }
  p.skip = false;
  draw(tb);
  holdFrame(tb, p);
  const now = Date.now();
  if (shown) {
    p.shownAt = now;
    if (p.trick) p.trickUntil = now + Math.max(p.hold, TRICK_MS) * lagScale(p);
  }
  let next = Infinity;
  if (p.queue.length) next = dueAt(p);
  if (p.trickUntil > now) next = Math.min(next, p.trickUntil);
  if (tb.ui.notice && tb.ui.notice.until > now) next = Math.min(next, tb.ui.notice.until);
  if (next < Infinity && p.shown) {
    const id = p.shown.table;
    // Due within a frame already drawn: drawn when the next one begins,
    // as a message would be (the pacing's timers drew at once, so a fast
    // game was drawn more often than the screen shows it).
    p.timer = setTimeout(() => { if (onRoute('table', id)) drawSoon(tb, p); }, Math.max(0, next - now) + 5);
  }
}

// skipPause ends the pause on screen (a click or a key): the next state
// shows now, and (unless land is false) the moving cards land at once.
export function skipPause(land = true) {
  if (!onRoute('table')) return;
  const tb = app.tables.get(app.route.id);
  if (!tb || !tb.pace) return;
  if (land) finishAll();
  const p = tb.pace;
  if (!p.queue.length && !(p.trickUntil > Date.now())) return;
  p.skip = true;
  p.trickUntil = 0;
  setTimeout(() => pump(tb), 0);
}

// turnAlert tells a player whose tab is in the background that it is their
// turn: the tab title, and a sound when they turned alerts on.
function turnAlert(tb, prev, st) {
  const was = prev && (prev.legal || []).length > 0;
  if (was || !(st.legal || []).length || !document.hidden) return;
  document.title = t('table.title_turn', { game: gameTitle(st.game) });
  if (alertsOn()) tone(880, 0.25);
}

// isTournamentTable: a tournament deal's table (its id begins tt_). Its
// replay is offered on the tournament's page, once the deal is closed: the
// server holds the record until then, from its own player too.
function isTournamentTable(id) { return typeof id === 'string' && id.startsWith('tt_'); }

function alertsOn() { return localStorage.getItem('cardroom.alerts') === 'on'; }

let listening = false;
function listen() {
  if (listening) return;
  listening = true;
  document.addEventListener('visibilitychange', () => { if (!document.hidden) document.title = t('app.title'); });
  // A click or a key anywhere on the table skips the pause on screen.
  // The cards a press finds moving land once the click is over, not at the
  // press: a card that jumped away between press and release would take no
  // click (the click goes to what lies under both).
  document.addEventListener('pointerdown', (e) => { if (onRoute('table')) { skipPause(false); explainRefusal(e); } }, true);
  document.addEventListener('click', () => { if (onRoute('table')) finishAll(); }, true);
  document.addEventListener('keydown', (e) => { if (onRoute('table') && !e.ctrlKey && !e.metaKey && !e.altKey) { skipPause(); explainKey(e); } }, true);
}

// explainRefusal says why a card cannot be played when it is pressed: its
// data-why, set by the game module (a disabled button gets no click, but
// the press still reaches the document).
function explainRefusal(e) {
  let el = e.target && e.target.closest ? e.target.closest('[data-why]') : null;
  if (!el) {
    // The press landed beside a disabled card: find it under the pointer.
    for (const c of document.querySelectorAll('[data-why]')) {
      const r = c.getBoundingClientRect();
      if (e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom) el = c;
    }
  }
  if (!el || !el.dataset.why) return;
  const now = Date.now();
  if (explainRefusal.last && explainRefusal.last.text === el.dataset.why && now - explainRefusal.last.at < 1500) return;
  explainRefusal.last = { text: el.dataset.why, at: now };
  toast(el.dataset.why, false);
}

// explainKey is explainRefusal for the keyboard: Enter or Space on a card
// that cannot be played says why.
function explainKey(e) {
  if (e.key !== 'Enter' && e.key !== ' ') return;
  const c = e.target && e.target.closest ? e.target.closest('[data-testid=hand-card][aria-disabled=true]') : null;
  if (c) explainRefusal({ target: c });
}

// renderTable takes in what arrived and draws the table now (tableChanged
// draws at the next frame).
export function renderTable() {
  const id = app.route.id;
  const tb = tableData(id);
  hookChat(); // chat.js: the chat and rematch messages
  listen();
  absorb(tb);
  pump(tb);
}

function draw(tb) {
  const main = document.getElementById('app');
  const id = app.route.id;
  const p = paceOf(tb);
  const st = p.shown;
  if (!st || st.table !== id) {
    const msg = tb.ui.missing === 'forbidden' ? t('table.private_no_invite') : tb.ui.missing ? t('table.no_table') : t('table.loading');
    replace(main, h('div', { class: 'panel', 'data-testid': tb.ui.missing ? 'table-missing' : 'table-loading', 'data-reason': tb.ui.missing || '' }, h('p', {}, msg),
      h('a', { href: '#/' }, t('table.back'))));
    return;
  }
  const latest = mainState(tb);
  const mod = game(st.game);
  // A state that is not the newest is shown read-only: its moves are gone.
  const ctx = ctxFor(st, tb, st !== latest, renderTable);
  ctx.pace = { trick: p.trickUntil > Date.now() ? p.trick : null, fresh: p.fresh };
  ctx.history = (tb.history || []).slice(0, st.__hlen);
  const g = renderGame(mod, ctx);
  if (st.status === 'open') {
    g.status = t('table.waiting_short');
    g.sub = '';
    g.badges = null;
  }
  const seatsBox = h('div', { class: 'opponents', 'data-testid': 'seats' },
    (st.seats || []).map((s) => renderSeat(ctx, s, mod)));
  const leaving = tb.ui.confirmLeave && st.seat >= 0 && st.status !== 'finished';
  const head = h('div', { class: 'table-head' },
    h('h2', {}, gameTitle(st.game), ' ', h('span', { class: 'badge', 'data-testid': 'table-status' }, t('status.' + st.status))),
    h('div', { class: 'row' },
      st.seat < 0 ? h('span', { class: 'badge', 'data-testid': 'spectator-badge' }, t('table.spectator')) : null,
      g.badges || null,
      st.status === 'playing' && st.seat >= 0 && !(tb.summary && tb.summary.rated) ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'hint', onclick: () => send({ type: 'hint', table: id, seat: st.seat }) }, t('table.hint')) : null,
      h('button', {
        class: 'btn small secondary', type: 'button', 'data-testid': 'alerts-toggle', 'aria-pressed': String(alertsOn()), title: t('table.alerts_help'),
        onclick: () => {
          localStorage.setItem('cardroom.alerts', alertsOn() ? 'off' : 'on');
          // The click lets the page play sound (browsers refuse it before a gesture).
          if (alertsOn()) tone(660, 0.08);
          draw(tb);
        },
      }, alertsOn() ? t('table.alerts_on') : t('table.alerts_off')),
      st.status === 'finished' && !isTournamentTable(id) ? h('a', { class: 'btn small secondary', href: '#/replay/' + id, 'data-testid': 'open-replay' }, t('table.replay')) : null,
      st.seat >= 0 && st.status !== 'finished' ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'leave', 'aria-expanded': String(!!leaving), onclick: () => { tb.ui.confirmLeave = !tb.ui.confirmLeave; draw(tb); } }, t('table.leave')) : null,
      h('a', { class: 'btn small secondary', href: '#/', 'data-testid': 'back-lobby' }, t('table.back'))));
  const leaveBox = leaving ? h('div', { class: 'offer leave-confirm', role: 'alertdialog', 'aria-labelledby': 'leave-q', 'data-testid': 'leave-confirm' },
    h('p', { id: 'leave-q' }, st.status === 'open' ? t('table.leave_open') : t('table.leave_bot')),
    h('div', { class: 'controls' },
      h('button', { class: 'btn danger', type: 'button', 'data-testid': 'leave-yes', onclick: () => leaveTable(tb, id) }, t('table.leave_yes')),
      h('button', { class: 'btn secondary', type: 'button', 'data-testid': 'leave-no', onclick: () => { tb.ui.confirmLeave = false; draw(tb); } }, t('table.leave_no')))) : null;
  const myClock = clockFor(st, st.seat);
  const statusLine = h('div', { class: 'status', 'data-testid': 'status', 'data-key': 'status', 'aria-live': 'polite' }, g.status || '',
    // Not read out as it ticks (it is in the live status line): the last
    // seconds are announced once (startClock).
    myClock !== null && (st.to_act || []).includes(st.seat) ? h('span', { class: 'badge clock mine', 'data-testid': 'my-clock', 'data-deadline': myClock, 'data-me': '1', 'aria-hidden': 'true' }, clockText(myClock)) : null,
    g.sub ? h('span', { class: 'sub' }, g.sub) : null);
  const notice = tb.ui.notice && tb.ui.notice.until > Date.now()
    ? h('div', { class: 'offer notice', role: 'status', 'data-testid': 'timeout-notice' }, tb.ui.notice.text) : null;
  const hintBox = ctx.hint ? h('div', { class: 'offer', 'data-testid': 'hint-text', role: 'status' }, t('table.hint_is', { move: describeMove(st.game, ctx.hint) })) : null;
  const felt = h('section', {
    class: 'felt', 'aria-label': t('table.table'), 'data-testid': 'felt', 'data-game': st.game, 'data-seq': st.seq, 'data-table': st.table, 'data-seat': st.seat, 'data-status': st.status,
    'data-queued': p.queue.length, 'data-key': 'felt',
  },
  head, leaveBox,
  st.status === 'open' ? renderWaiting(ctx, tb) : null,
  seatsBox, notice, g.center, statusLine, hintBox, g.hand || null);
  const side = h('aside', { class: 'side', 'data-key': 'side' },
    h('section', { class: 'panel scores', 'aria-labelledby': 'scores-h' }, h('h3', { id: 'scores-h' }, t('table.scores')), mod && mod.scores ? mod.scores(ctx) : null),
    chatPanel(st), // chat.js: chat and rematch
    st.status !== 'open' ? historyPanel(ctx, tb, st.__hlen) : null,
    g.log ? h('section', { class: 'panel' }, h('h3', {}, t('table.last_moves')), g.log) : null,
    helpPanel(st.game, tb.ui, renderTable, st.options));
  // The same table is patched in place (cards keep their elements and
  // move); another table, or the first draw, replaces the page.
  const page = main.firstElementChild;
  const same = page && page.dataset.table === String(st.table) && page.dataset.seat === String(st.seat);
  const before = same ? flipRects(main) : null;
  const tree = [h('div', { class: 'tablepage', 'data-key': 'tablepage', 'data-table': st.table, 'data-seat': st.seat }, felt, side),
    st.status === 'finished' && st.result && !tb.ui.closedFinal && !ctx.pace.trick ? finalDialog(ctx, tb) : null];
  if (same) morph(main, ...tree);
  else replace(main, ...tree);
  if (before) flip(main, before);
  keepScrolled(main, tb.ui);
  roveHand(); // keys.js: the hand is one Tab stop
  // The sticky hand's height, for what scrolls into view (app.css).
  const hand = main.querySelector('.hand-area');
  document.documentElement.style.setProperty('--hand-h', hand ? hand.offsetHeight + 8 + 'px' : '0px');
  startClock();
}

// leaveTable leaves the table (a bot plays the seat) for the lobby; asked
// by the Back button (confirmLeave "back": main.js holdSeat), it goes back
// where Back was going, without another history entry.
function leaveTable(tb, id) {
  const byBack = tb.ui.confirmLeave === 'back';
  tb.ui.confirmLeave = false;
  send({ type: 'leave', table: id });
  if (byBack) {
    app.nav.leaving = id;
    history.back();
  } else go('#/');
}

// clockFor is when the seat's turn clock runs out (Unix ms, as this
// browser counts), or null without a clock.
function clockFor(st, seat) {
  const c = st.clock;
  if (!c || !c.remaining || c.remaining[String(seat)] === undefined) return null;
  const left = +c.remaining[String(seat)];
  if (!Number.isFinite(left) || left < 0) return null;
  return (st.__at || Date.now()) + left;
}

function clockText(deadline) {
  const left = Math.max(0, deadline - Date.now());
  return t('table.clock_s', { s: Math.ceil(left / 1000) });
}

export function renderSeat(ctx, s, mod) {
  const turn = (ctx.toAct || []).includes(s.seat);
  const info = mod && mod.seatInfo ? mod.seatInfo(ctx, s.seat) : null;
  const deadline = turn ? clockFor(ctx.state, s.seat) : null;
  const clock = deadline !== null
    ? h('span', { class: 'badge clock', 'data-deadline': deadline, 'data-testid': 'clock-' + s.seat }, clockText(deadline)) : null;
  return h('div', {
    class: 'seat' + (turn ? ' turn' : '') + (s.seat === ctx.seat ? ' me' : ''), 'data-testid': 'seat-' + s.seat, 'data-key': 'seat-' + s.seat,
    // A group, so that screen readers read its label (a div's is ignored).
    role: 'group', 'aria-label': seatName(ctx, s.seat) + (turn ? ' — ' + t('table.to_act') : ''),
  },
  h('div', { class: 'name' }, s.kind === 'empty' ? t('table.empty_seat') : seatName(ctx, s.seat),
    s.away ? h('span', { class: 'badge' }, t('table.away')) : null,
    s.bot_account ? botBadge('bot-badge-' + s.seat) : null,
    accountMark(s, 'account-badge-' + s.seat),
    s.kind === 'human' && !s.connected ? h('span', { class: 'badge' }, t('table.offline')) : null),
  info ? h('div', { class: 'meta' }, info) : null,
  backs(ctx, s.seat),
  turn ? h('div', { class: 'meta' }, t('table.to_act'), ' ', clock) : null);
}

function backs(ctx, seat) {
  const sizes = ctx.view.hand_sizes || [];
  const n = sizes[seat] || 0;
  if (seat === ctx.seat || !n) return null;
  const row = h('div', { class: 'backs', 'aria-hidden': 'true' });
  for (let i = 0; i < Math.min(n, 12); i++) row.appendChild(cardEl('back', {}));
  return row;
}

function renderWaiting(ctx, tb) {
  const st = ctx.state;
  const mine = (st.seats || []).some((s) => s.player && app.me && s.player === app.me.player);
  const owner = tb.summary && app.me && tb.summary.owner === app.me.player;
  const inviteCode = app.invites.get(st.table);
  const base = app.publicURL || location.origin; // the room's -public-url, else this page's
  const link = inviteCode ? `${base}/?table=${st.table}&invite=${inviteCode}` : `${base}/?table=${st.table}`;
  const level = h('select', { 'aria-label': t('lobby.bot_level'), 'data-testid': 'add-bot-level' }, levels().map((l) => h('option', { value: l }, t('level.' + l))));
  return h('div', { class: 'offer', 'data-testid': 'waiting' },
    h('p', {}, t('table.waiting')),
    h('p', { class: 'row' }, t('table.invite_link'), ' ', h('input', { readonly: true, value: link, 'data-testid': 'invite-link', 'aria-label': t('table.invite_link'), size: 48, onfocus: (e) => e.target.select() }),
      h('button', {
        class: 'btn small secondary', type: 'button', 'data-testid': 'copy-invite',
        onclick: async (e) => {
          try { await navigator.clipboard.writeText(link); } catch { const i = e.target.parentNode.querySelector('input'); i.select(); document.execCommand && document.execCommand('copy'); }
          toast(t('table.copied'));
        },
      }, t('table.copy'))),
    h('div', { class: 'row' }, (st.seats || []).filter((s) => s.kind === 'empty').map((s) => [
      !mine ? h('button', { class: 'btn small', type: 'button', 'data-testid': 'sit-' + s.seat, onclick: () => joinTable(st.table, s.seat) }, t('table.sit', { n: s.seat + 1 })) : null,
      owner ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'add-bot-' + s.seat, onclick: () => send({ type: 'add_bot', table: st.table, seat: s.seat, level: level.value }) }, t('table.add_bot', { n: s.seat + 1 })) : null,
    ]), owner ? level : null),
    owner ? h('div', { class: 'row' }, (st.seats || []).filter((s) => s.kind === 'bot').map((s) => h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'remove-bot-' + s.seat, onclick: () => send({ type: 'remove_bot', table: st.table, seat: s.seat }) }, t('table.remove_bot', { n: s.seat + 1 })))) : null);
}

function finalDialog(ctx, tb) {
  const r = ctx.result;
  const n = (r.totals || []).length;
  const winners = r.winners || [];
  // The winners first, then by total; players level on both share a
  // place (1, 1, 3: four winners of a Papayoo game with 0 points each are
  // all first, not first to fourth).
  const won = (s) => (winners.includes(s) ? 1 : 0);
  const ahead = (a, b) => (won(b) - won(a)) || (r.higher_wins ? r.totals[b] - r.totals[a] : r.totals[a] - r.totals[b]);
  const rows = [];
  for (let s = 0; s < n; s++) rows.push(s);
  rows.sort((a, b) => ahead(a, b) || a - b);
  const place = (s) => 1 + rows.filter((o) => ahead(o, s) < 0).length;
  const mod = game(ctx.game);
  const close = () => { tb.ui.closedFinal = true; renderTable(); };
  // A modal dialog: Escape closes it, and Tab cycles through its own
  // controls (the page behind it is not reachable until it is closed).
  const trap = (e) => {
    if (e.key === 'Escape') { close(); return; }
    if (e.key !== 'Tab') return;
    const f = [...dlg.querySelectorAll('a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])')];
    if (!f.length) return;
    const first = f[0];
    const last = f[f.length - 1];
    if (e.shiftKey && (document.activeElement === first || !dlg.contains(document.activeElement))) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  };
  const dlg = h('div', { class: 'overlay', onkeydown: trap },
    h('div', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'final-h', 'data-testid': 'final-scores' },
      h('h2', { id: 'final-h' }, t('final.title')),
      h('p', { class: 'winner-line', 'data-testid': 'final-winners' }, winners.length > 1
        ? t('final.winners', { names: winners.map((w) => seatName(ctx, w)).join(', ') })
        : t('final.winner', { name: seatName(ctx, winners[0]) })),
      h('table', { class: 'list' },
        h('thead', {}, h('tr', {}, h('th', {}, t('final.place')), h('th', {}, t('final.player')), h('th', {}, t('final.total')))),
        h('tbody', {}, rows.map((s) => h('tr', { 'data-testid': 'final-row', 'data-seat': s },
          h('td', { 'data-testid': 'final-place-' + s }, String(place(s))), h('td', {}, seatName(ctx, s), seatMark(ctx, s), winners.includes(s) ? h('span', { class: 'badge gold', style: 'margin-left:.4rem' }, t('final.winner_badge')) : null),
          h('td', { 'data-testid': 'final-total-' + s }, String(r.totals[s])))))),
      mod && mod.finalExtra ? mod.finalExtra(ctx) : null,
      rematchFinal(ctx.state), // chat.js: one click offers a rematch
      ratingChange(ctx, tb, renderTable), // a rated table: before → after
      h('div', { class: 'controls' },
        isTournamentTable(ctx.state.table) ? null : h('a', { class: 'btn', href: '#/replay/' + ctx.state.table, 'data-testid': 'final-replay' }, t('table.replay')),
        app.tournaments.get(ctx.state.table) ? h('a', { class: 'btn secondary', href: '#/tournament/' + encodeURIComponent(app.tournaments.get(ctx.state.table)), 'data-testid': 'final-tournament' }, t('final.tournament')) : null,
        h('button', { class: 'btn secondary', type: 'button', 'data-testid': 'final-close', onclick: close }, t('final.close')),
        h('a', { class: 'btn secondary', href: '#/', 'data-testid': 'final-lobby' }, t('table.back')))));
  setTimeout(() => { const b = dlg.querySelector('[data-testid=final-replay], [data-testid=final-tournament], [data-testid=final-close]'); if (b && !dlg.contains(document.activeElement)) b.focus(); }, 0);
  return dlg;
}

// helpPanel shows the game's rules and tips in tabs; rerender redraws the
// page after a tab is chosen.
// options, when given, are the table's own (its target, its rounds): shown
// above the rules, which say the same (the module's rulesText).
export function helpPanel(name, ui, rerender, options) {
  const tab = ui.helpTab || 'rules';
  const mk = (which) => h('button', {
    type: 'button', role: 'tab', 'aria-selected': String(tab === which), id: 'tab-' + which, 'data-testid': 'tab-' + which,
    'aria-controls': 'help-body', onclick: () => { ui.helpTab = which; rerender(); },
  }, t('help.' + which));
  return h('section', { class: 'panel', 'aria-label': t('help.title') },
    options ? optionsBox(name, options) : null,
    h('div', { class: 'tabs', role: 'tablist' }, mk('rules'), mk('tips')),
    h('div', { id: 'help-body', role: 'tabpanel', 'aria-labelledby': 'tab-' + tab, 'data-testid': 'help-' + tab }, renderRich(helpText(name, tab, options))),
    h('p', { class: 'meta keys' }, t('help.keys')));
}

// startClock runs the countdowns: every [data-deadline] shows the seconds
// left, turns to the warning colour in the last WARN_MS and, for the
// player's own clock with alerts on, ticks once a second then.
const WARN_MS = 10000;
function startClock() {
  if (app.clockTimer) return;
  let lastTick = 0;
  let warned = ''; // the deadline whose last seconds were announced
  app.clockTimer = setInterval(() => {
    for (const b of document.querySelectorAll('[data-deadline]')) {
      const left = Math.max(0, +b.dataset.deadline - Date.now());
      const text = clockText(+b.dataset.deadline);
      if (b.textContent !== text) b.textContent = text;
      b.classList.toggle('warn', left <= WARN_MS);
      if (b.dataset.me && left > 0 && left <= WARN_MS) {
        if (warned !== b.dataset.deadline) {
          warned = b.dataset.deadline;
          announce(t('table.time_low', { n: Math.ceil(left / 1000) }));
        }
        const sec = Math.ceil(left / 1000);
        if (alertsOn() && sec !== lastTick) { lastTick = sec; tone(520, 0.06); }
      }
    }
  }, 250);
}
