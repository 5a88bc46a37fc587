// The replay of a finished game: step by step, by trick (or turn), by
// round, or played by itself at a chosen speed; from a seat or as a
// spectator, with the table's move history up to the step shown and,
// from a player's seat, the post-game analysis of its moves
// (analysis.js). The server replays the record to any step
// (GET /api/records/{id}/replay?step=N&seat=S&history_from=H); the record
// itself gives the names, the options and who made each move. A player
// who played the game sees it from their own seat first (the lowest, if
// they held several); anyone may switch seats, since a finished game
// hides nothing (the server serves no replay of a game still going on).
// A private game's requests carry the invite the reader came with.
import { h, replace, morph, flipRects, flip } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../net.js';
import { seatName } from '../pieces.js';
import { app, tableData, showError, backLinks, onRoute } from '../app.js';
import { game, gameTitle, describeMove } from '../games.js';
import { optionsText } from '../options.js';
import { ctxFor, renderSeat, renderGame, helpPanel, holdFor } from './table.js';
import { mergeHistory, historyPanel, keepScrolled } from '../history.js';
import { wantAnalysis, analysisPanel } from '../analysis.js';

// SPEEDS are the play speeds offered, in steps per second.
const SPEEDS = [0.5, 1, 2, 4];
// CACHE_MAX bounds the steps kept in memory (views of one seat).
const CACHE_MAX = 400;
// WALK_MAX bounds the steps one "next trick" or "previous trick" looks at.
const WALK_MAX = 200;

// startReplay is called when the route opens a replay.
export function startReplay(id) {
  stopPlaying();
  app.replay = {
    id, step: null, seat: -1, data: null, info: null, cache: new Map(), playing: false, speed: 1, busy: false, rounds: new Map(),
    invite: app.invites.get(id) || '', // a private game's invite (app.js), passed to every request
    // The move history (the same for every seat), as a table keeps it
    // (history.js): entries at their indexes, the panel's scroll state.
    hist: { history: [], ui: {} },
  };
}

// stepReplay moves the replay on screen by delta steps (the arrow keys).
export function stepReplay(delta) {
  const r = app.replay;
  if (!r || !r.data) return false;
  stopPlaying();
  goTo(r.data.step + delta);
  return true;
}

// held is how many of the history's first entries the replay holds: the
// server sends only those after them.
function held(list) {
  let n = 0;
  while (n < list.length && list[n]) n++;
  return n;
}

// fetchStep returns the replay at step (from the cache when it was seen),
// its history entries written into the replay's list (d.__hlen: the
// history's length at that step).
async function fetchStep(step) {
  const r = app.replay;
  const key = r.seat + '/' + step;
  if (r.cache.has(key)) return r.cache.get(key);
  const q = new URLSearchParams();
  if (step !== null && step !== undefined) q.set('step', step);
  q.set('seat', r.seat);
  q.set('history_from', held(r.hist.history));
  if (r.invite) q.set('invite', r.invite);
  const d = await api('GET', `/api/records/${encodeURIComponent(r.id)}/replay?${q}`);
  d.__hlen = d.history ? mergeHistory(r.hist, d) : 0;
  if (r.cache.size >= CACHE_MAX) r.cache.delete(r.cache.keys().next().value);
  r.cache.set(r.seat + '/' + d.step, d);
  return d;
}

// goTo shows step (clamped to the record).
async function goTo(step) {
  const r = app.replay;
  const max = r.data ? r.data.steps : Infinity;
  step = Math.max(0, Math.min(max, step));
  r.busy = true;
  try {
    r.data = await fetchStep(step);
    r.step = r.data.step;
    r.error = null;
  } catch (err) {
    r.error = err;
    stopPlaying();
    showError(err);
  }
  r.busy = false;
  if (app.replay === r) renderReplay();
}

// loadInfo reads the record once: the names at the seats, the options, the
// seat of every entry (-1 for a chance outcome), and how many rounds the
// game had (the last step's header).
async function loadInfo() {
  const r = app.replay;
  try {
    const txt = String(await api('GET', '/api/records/' + encodeURIComponent(r.id) + inviteQuery(r)));
    const names = [];
    const accounts = [];
    const bots = [];
    let options = {};
    const movers = [];
    for (const line of txt.split('\n')) {
      const tag = /^\[(\w+) "((?:[^"\\]|\\.)*)"\]/.exec(line);
      if (tag) {
        const seat = /^Seat(\d+)$/.exec(tag[1]);
        if (seat) names[+seat[1]] = tag[2];
        // The seats whose players held an account when they sat down, and
        // those of bot accounts (docs/records.md): their names get the
        // table's ✓, or its BOT badge.
        const marked = { Accounts: accounts, BotAccounts: bots }[tag[1]];
        if (marked) for (const x of tag[2].split(/\s+/)) if (/^\d+$/.test(x)) marked[+x] = true;
        if (tag[1] === 'Options') options = Object.fromEntries(tag[2].split(/\s+/).filter(Boolean).map((p) => p.split('=')));
        continue;
      }
      if (!line.trim() || line.startsWith('#') || /^\s/.test(line)) continue; // blank, comment, continuation
      const m = /^(\d+) /.exec(line);
      movers.push(m ? +m[1] : -1);
    }
    const last = await fetchStep(r.data ? r.data.steps : null);
    r.info = { names, accounts, bots, options, movers, rounds: (last.view && last.view.round) || 0 };
  } catch {
    r.info = { names: [], accounts: [], bots: [], options: {}, movers: [], rounds: 0 };
  }
  if (app.replay === r) renderReplay();
}

// inviteQuery is "?invite=CODE" for a private game's reader who came
// with its invite, else "".
function inviteQuery(r) {
  return r.invite ? '?invite=' + encodeURIComponent(r.invite) : '';
}

// ownSeat sets the replay's seat to the lowest one the reader's player
// held in the game (the table's summary names each seat's player), so a
// player sees their own game as they played it: their cards face up, the
// analysis of their moves. Nobody's seat, or a summary that cannot be
// read, leaves the public view.
async function ownSeat(r) {
  const me = app.me && app.me.player;
  if (!me) return;
  try {
    const sum = await api('GET', '/api/tables/' + encodeURIComponent(r.id) + inviteQuery(r));
    const mine = (Array.isArray(sum && sum.seats) ? sum.seats : []).filter((s) => s && s.player === me && Number.isInteger(s.seat) && s.seat >= 0).map((s) => s.seat);
    r.mine = mine;
    if (mine.length && r.seat === -1 && !r.data) r.seat = Math.min(...mine);
  } catch { /* the public view */ }
}

function stopPlaying() {
  const r = app.replay;
  if (!r) return;
  r.playing = false;
  clearTimeout(r.timer);
}

// fresh are the history entries the step on screen brought (a trick, a
// draw).
function fresh(r, d) {
  const from = Number.isInteger(d.history_new) ? d.history_new : d.__hlen;
  return r.hist.history.slice(Math.max(0, from), d.__hlen).filter(Boolean);
}

// stepHold is how long a step stays on screen while playing: a step at the
// chosen speed, and at least what the table gives what the step brought (a
// finished trick stays TRICK_MS before the next lead). The table's pause
// for another seat's move is not one: the speed says how fast moves go.
function stepHold(r) {
  const mod = game(r.data.game);
  let ms = 1000 / r.speed;
  for (const e of fresh(r, r.data)) ms = Math.max(ms, holdFor(mod, e, e.seat));
  return ms;
}

// tick advances one step while playing, at the chosen speed.
function tick() {
  const r = app.replay;
  if (!r || !r.playing) return;
  r.timer = setTimeout(async () => {
    if (!r.playing || app.replay !== r) return;
    if (!onRoute('replay', r.id)) { stopPlaying(); return; }
    if (r.data.step >= r.data.steps) { stopPlaying(); renderReplay(); return; }
    await goTo(r.data.step + 1);
    tick();
  }, stepHold(r));
}

function togglePlay() {
  const r = app.replay;
  if (r.playing) { stopPlaying(); renderReplay(); return; }
  if (r.data.step >= r.data.steps) return;
  r.playing = true;
  renderReplay();
  tick();
}

// tricksOf is the number of finished tricks a step's view shows, or null
// for a game without tricks.
function tricksOf(d) {
  const v = (d && d.view) || {};
  return 'tricks' in v ? (v.tricks || []).length : null;
}
const roundOf = (d) => ((d && d.view && d.view.round) || 0);

// isBoundary: at step s a trick has just been completed (one more finished
// trick than the step before) or, in a game without tricks, a seat's turn
// ends (the move that led here and the next one are not the same seat's).
async function isBoundary(s) {
  const r = app.replay;
  if (s <= 0 || s >= r.data.steps) return true;
  if (tricksOf(r.data) === null) {
    const m = r.info ? r.info.movers : [];
    return m[s - 1] !== m[s];
  }
  const [a, b] = [await fetchStep(s - 1), await fetchStep(s)];
  return tricksOf(b) > tricksOf(a);
}

// byTrick moves to the next (dir 1) or previous (dir -1) boundary.
async function byTrick(dir) {
  const r = app.replay;
  stopPlaying();
  r.busy = true;
  renderReplay();
  try {
    let s = r.data.step + dir;
    for (let n = 0; n < WALK_MAX && s > 0 && s < r.data.steps; n++, s += dir) {
      if (await isBoundary(s)) break;
    }
    await goTo(s);
  } catch (err) {
    r.busy = false;
    showError(err);
  }
}

// toRound moves to the first step of round k (binary search on the views'
// round; a round's steps are contiguous).
async function toRound(k) {
  const r = app.replay;
  stopPlaying();
  r.busy = true;
  try {
    let step = r.rounds.get(r.seat + '/' + k);
    if (step === undefined) {
      let lo = 0, hi = r.data.steps;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (roundOf(await fetchStep(mid)) >= k) hi = mid; else lo = mid + 1;
      }
      step = lo;
      r.rounds.set(r.seat + '/' + k, step);
    }
    await goTo(step);
  } catch (err) {
    r.busy = false;
    showError(err);
  }
}

// forReplay turns what a game module drew for a read-only table into a
// picture: cards become images (not disabled buttons), a card is not
// greyed out as unplayable, and the action buttons go (nobody acts in a
// replay). Buttons that only change what is shown stay.
function forReplay(el) {
  if (!el || !(el instanceof Element)) return el;
  for (const b of el.querySelectorAll('button.card')) {
    const img = document.createElement('span');
    for (const a of b.attributes) if (!['disabled', 'type', 'aria-pressed', 'aria-disabled'].includes(a.name)) img.setAttribute(a.name, a.value);
    img.classList.remove('illegal', 'playable');
    img.setAttribute('role', 'img');
    img.append(...b.childNodes);
    b.replaceWith(img);
  }
  for (const c of el.querySelectorAll('.controls')) c.remove();
  for (const b of el.querySelectorAll('button[disabled]')) b.remove();
  return el;
}

// replayAnalysis is the analysis panel for the seat the replay is seen
// from: fetched only for a seat a player held (the record names a bot
// "bot:<level>"; the server analyses only the players' seats), and not
// before the record's names are known.
function replayAnalysis(r, d, info) {
  if (!r.info) return null;
  const humans = [];
  for (let s = 0; s < info.names.length; s++) {
    const name = info.names[s];
    if (name && !name.startsWith('bot:')) humans.push({ seat: s, name });
  }
  const seat = r.seat;
  const human = humans.some((x) => x.seat === seat);
  const live = () => app.replay === r && r.seat === seat && onRoute('replay', r.id);
  const state = seat >= 0 && human ? wantAnalysis(r, seat, live, renderReplay) : null;
  return analysisPanel({
    seat, humans, game: d.game, step: d.step, state,
    goTo: (step) => { stopPlaying(); goTo(step); },
    pickSeat: (s) => { stopPlaying(); r.seat = s; goTo(r.step); },
  });
}

export function renderReplay() {
  const main = document.getElementById('app');
  const r = app.replay;
  // A fetch that ends after the player left the replay (Back to the
  // table) draws nothing: the page on screen is another view's.
  if (!r || !onRoute('replay', r.id)) return;
  if (!r.data && !r.error) {
    replace(main, h('div', { class: 'panel' }, t('table.loading')));
    if (!r.opening) r.opening = ownSeat(r).then(() => goTo(0)).then(() => { if (!r.info) loadInfo(); });
    return;
  }
  if (!r.data) { replace(main, h('div', { class: 'panel' }, h('p', {}, t('replay.unavailable')), h('a', { href: '#/' }, t('table.back')))); return; }
  const d = r.data;
  const tb = tableData(d.table);
  const v = d.view || {};
  const info = r.info || { names: [], accounts: [], bots: [], options: {}, movers: [], rounds: 0 };
  // Every view starts with the same header (game.Header): players, to_act…
  const n = v.players || 0;
  const seats = [];
  const summary = tb.summary;
  for (let s = 0; s < n; s++) {
    const name = info.names[s] || (summary && summary.seats && summary.seats[s] && summary.seats[s].name) || '';
    seats.push({ seat: s, name, kind: name.startsWith('bot:') ? 'bot' : 'human', account: !!info.accounts[s], bot_account: !!info.bots[s], connected: true });
  }
  const options = Object.keys(info.options).length ? info.options : (v.options || {});
  const st = { table: d.table, game: d.game, seat: d.seat, view: v, legal: [], to_act: v.to_act || [], seats, status: d.result ? 'finished' : 'playing', result: d.result, options };
  const mod = game(d.game);
  const ctx = ctxFor(st, tb, true, renderReplay);
  // Another player's seat is not "you" and its hand not "your hand"
  // (pieces.js seatName, handTitle).
  ctx.others = !(r.mine || []).includes(d.seat);
  // The history up to this step, and what the step brought: a trick that
  // closed here is drawn finished (ctx.pace.trick), as the table shows it
  // before the winner leads again.
  const brought = fresh(r, d);
  ctx.history = r.hist.history.slice(0, d.__hlen);
  ctx.pace = { trick: brought.filter((e) => e.kind === 'trick').pop() || null, fresh: brought };
  const g = renderGame(mod, ctx);
  const busy = r.busy;
  const btn = (testid, key, label, onclick, disabled) => h('button', { class: 'btn small', type: 'button', 'data-testid': testid, 'data-key': key, disabled: !!disabled || undefined, onclick }, label);
  const byTurn = tricksOf(d) === null;
  const seatSel = h('select', { 'aria-label': t('replay.seat'), 'data-testid': 'replay-seat', onchange: (e) => { stopPlaying(); r.seat = +e.target.value; goTo(r.step); } },
    h('option', { value: -1, selected: r.seat === -1 }, t('replay.spectator')),
    seats.map((s) => h('option', { value: s.seat, selected: r.seat === s.seat }, t('seat.n', { n: s.seat + 1 }))));
  const rounds = [];
  for (let k = 1; k <= Math.max(info.rounds, v.round || 0); k++) rounds.push(k);
  const roundSel = rounds.length > 1 ? h('label', { class: 'inline' }, t('replay.round'), ' ',
    h('select', { 'data-testid': 'replay-round', onchange: (e) => toRound(+e.target.value) },
      (v.round || 0) < 1 ? h('option', { value: 0, selected: true }, '–') : null,
      rounds.map((k) => h('option', { value: k, selected: k === v.round }, String(k))))) : null;
  const speedSel = h('label', { class: 'inline' }, t('replay.speed'), ' ',
    h('select', { 'data-testid': 'replay-speed', onchange: (e) => { r.speed = +e.target.value || 1; } },
      SPEEDS.map((s) => h('option', { value: s, selected: s === r.speed }, t('replay.speed_x', { x: String(s) })))));
  const entry = d.entry ? (d.entry.move ? `${seatName(ctx, d.entry.seat)}: ${describeMove(d.game, d.entry.move)}` : t('replay.chance', { what: d.entry.chance })) : t('replay.start');
  const bar = h('div', { class: 'controls replay-bar', role: 'toolbar', 'aria-label': t('replay.controls'), 'data-testid': 'replay-bar' },
    btn('replay-first', 'rf', '« ' + t('replay.first'), () => { stopPlaying(); goTo(0); }, d.step === 0),
    btn('replay-prev-trick', 'rpt', '◀◀ ' + (byTurn ? t('replay.prev_turn') : t('replay.prev_trick')), () => byTrick(-1), d.step === 0 || busy),
    btn('replay-prev', 'rp', '◀ ' + t('replay.prev'), () => { stopPlaying(); goTo(d.step - 1); }, d.step === 0),
    h('button', {
      class: 'btn small', type: 'button', 'data-testid': 'replay-play', 'data-key': 'rplay', 'aria-pressed': String(r.playing),
      disabled: (!r.playing && d.step >= d.steps) || undefined, onclick: togglePlay,
    }, r.playing ? '▮▮ ' + t('replay.pause') : '▶ ' + t('replay.play')),
    btn('replay-next', 'rn', t('replay.next') + ' ▶', () => { stopPlaying(); goTo(d.step + 1); }, d.step >= d.steps),
    btn('replay-next-trick', 'rnt', (byTurn ? t('replay.next_turn') : t('replay.next_trick')) + ' ▶▶', () => byTrick(1), d.step >= d.steps || busy),
    btn('replay-last', 'rl', t('replay.last') + ' »', () => { stopPlaying(); goTo(d.steps); }, d.step >= d.steps),
    h('span', { class: 'badge', 'data-testid': 'replay-step' }, t('replay.step', { step: d.step, steps: d.steps })));
  const settings = h('div', { class: 'row replay-settings' }, roundSel, speedSel, h('label', { class: 'inline' }, t('replay.seat'), ' ', seatSel));
  const optLine = optionsText(d.game, options, (mod && mod.listOptions) || []);
  const felt = h('section', { class: 'felt', 'aria-label': t('replay.title'), 'data-testid': 'replay', 'data-game': d.game },
    h('div', { class: 'table-head' }, h('h2', {}, t('replay.title'), ' — ', gameTitle(d.game)), h('div', { class: 'row' }, backLinks())),
    h('p', { class: 'table-sub', 'data-testid': 'replay-options' }, optionsText(d.game, options) || optLine),
    bar, settings,
    h('div', { class: 'status', 'data-testid': 'replay-entry', 'aria-live': 'polite' }, entry),
    h('div', { class: 'opponents' }, seats.map((s) => renderSeat(ctx, s, mod))),
    forReplay(g.center), h('div', { class: 'status' }, g.status || ''), forReplay(g.hand) || null);
  const help = helpPanel(d.game, tb.ui, renderReplay, options);
  const side = h('aside', { class: 'side', 'data-key': 'side' },
    replayAnalysis(r, d, info),
    h('section', { class: 'panel scores' }, h('h3', {}, t('table.scores')), mod && mod.scores ? mod.scores(ctx) : null),
    historyPanel(ctx, r.hist, d.__hlen),
    help);
  // The same replay is patched in place, so the cards move from step to
  // step as at the table; another replay replaces the page.
  const page = main.firstElementChild;
  const same = page && page.dataset.replay === r.id;
  const before = same ? flipRects(main) : null;
  const tree = h('div', { class: 'tablepage replaypage', 'data-key': 'replaypage', 'data-replay': r.id }, felt, side);
  if (same) morph(main, tree);
  else replace(main, tree);
  if (before) flip(main, before);
  keepScrolled(main, r.hist.ui);
}
