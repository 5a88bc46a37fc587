// The post-game analysis beside a replay (docs/client.md, "The analysis
// beside the replay"): how the room's hard bot rated every decision one
// seat made, from what that seat knew at the time (docs/bots.md,
// "Post-game analysis"; the JSON in docs/protocol.md, "Analysis of a
// finished game"). The server computes it in the background when the game
// ends, so the panel polls while it answers 202; a bot's seat, a failed
// analysis or a room without analysis answers 404 no_analysis, which the
// panel says in one short line. Other errors (a private game's 404
// no_table without its invite among them) only leave a quiet line: the
// replay works without the analysis.
import { h } from './dom.js';
import { t, currentLang } from './i18n.js';
import { api } from './net.js';
import { describeMove } from './games.js';

// POLL_MS is how often a pending analysis is asked for again (the server's
// Retry-After); POLL_MAX bounds the polls of one seat (five minutes), after
// which the panel says to come back later instead of asking forever.
const POLL_MS = 2000;
const POLL_MAX = 150;
// BUSY_MS is the wait after 503 busy (the server's Retry-After: too many
// analyses queued); BUSY_MAX bounds those retries.
const BUSY_MS = 30000;
const BUSY_MAX = 6;
// TOP is how many alternatives the panel lists for a decision.
const TOP = 3;
// MAX_DECISIONS bounds what the panel draws from one answer: more than any
// game of the room has for one seat (a long Pis Yedili game has a few
// hundred), so a malformed answer cannot make the page draw without end.
const MAX_DECISIONS = 5000;

// wantAnalysis returns seat's analysis state for the replay r, starting its
// fetch the first time (and again after its polls were stopped because the
// reader looked at another seat or another page). live() says whether the
// replay still shows that seat; rerender draws the replay again when the
// state changes. States: loading, pending (202), ready (data), none (404),
// slow (still pending after POLL_MAX polls), unavailable (other errors).
export function wantAnalysis(r, seat, live, rerender) {
  if (!r.analyses) r.analyses = new Map();
  let a = r.analyses.get(seat);
  if (!a) {
    a = { status: 'loading', data: null, polls: 0, busy: 0, timer: 0, running: false };
    r.analyses.set(seat, a);
  }
  if ((a.status === 'loading' || a.status === 'pending') && !a.running) {
    a.running = true;
    poll(r, seat, a, live, rerender);
  }
  return a;
}

// poll asks for the analysis once and schedules the next ask while it is
// pending; it stops (running false) as soon as the replay moved elsewhere.
async function poll(r, seat, a, live, rerender) {
  const again = (ms) => {
    a.timer = setTimeout(() => {
      if (!live()) { a.running = false; return; }
      poll(r, seat, a, live, rerender);
    }, ms);
  };
  let next = 0;
  try {
    const q = new URLSearchParams({ seat: String(seat) });
    if (r.invite) q.set('invite', r.invite); // a private game: the invite the reader came with
    const d = await api('GET', `/api/records/${encodeURIComponent(r.id)}/analysis?${q}`);
    if (d && typeof d === 'object' && Array.isArray(d.decisions)) {
      a.status = 'ready';
      a.data = clean(d, (r.data && r.data.steps) || 0);
    } else if (++a.polls >= POLL_MAX) {
      a.status = 'slow';
    } else {
      a.status = 'pending';
      next = POLL_MS;
    }
  } catch (err) {
    if (err.status === 404 && err.code === 'no_analysis') a.status = 'none';
    else if (err.status === 503 && err.code === 'busy' && ++a.busy <= BUSY_MAX) { a.status = 'pending'; next = BUSY_MS; }
    else a.status = 'unavailable';
  }
  if (next && live()) again(next);
  else a.running = false;
  if (live()) rerender();
}

// STAND_INS are the marks of a move a bot made for the player (the
// table's history says the same: by away or timeout).
const STAND_INS = ['away', 'timeout'];

const num = (x) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
const str = (x) => (typeof x === 'string' ? x : '');

// clean keeps what the panel draws from the server's answer, each value
// checked: decisions with a step inside the record (1…steps), sorted, at
// most MAX_DECISIONS; numbers finite, losses not negative; the mistakes
// only those that are decisions.
export function clean(d, steps) {
  const decisions = [];
  for (const x of d.decisions.slice(0, MAX_DECISIONS)) {
    if (!x || !Number.isInteger(x.step) || x.step < 1 || (steps > 0 && x.step > steps) || !str(x.move)) continue;
    decisions.push({
      step: x.step, round: Number.isInteger(x.round) && x.round > 0 ? x.round : 1, move: x.move,
      best: str(x.best) || x.move, legal: Number.isInteger(x.legal) && x.legal > 0 ? x.legal : 1,
      forced: x.forced === true, pruned: x.pruned === true, mistake: x.mistake === true && !STAND_INS.includes(x.by),
      by: STAND_INS.includes(x.by) ? x.by : '', // a bot moved for the player: not theirs, not rated
      value: num(x.value), bestValue: num(x.best_value), loss: Math.max(0, num(x.loss)), stderr: Math.max(0, num(x.stderr)),
      moves: (Array.isArray(x.moves) ? x.moves : []).filter((m) => m && str(m.move)).map((m) => ({ move: m.move, value: num(m.value), loss: Math.max(0, num(m.loss)) })),
    });
  }
  decisions.sort((p, q) => p.step - q.step);
  const byStep = new Map(decisions.map((x) => [x.step, x]));
  let mistakes = (Array.isArray(d.mistakes) ? d.mistakes : []).filter((s) => byStep.has(s) && !byStep.get(s).by).map((s) => byStep.get(s));
  if (!mistakes.length) mistakes = decisions.filter((x) => x.mistake).sort((p, q) => q.loss - p.loss);
  return {
    unit: str(d.unit), lowerIsBetter: d.lower_is_better === true, budget: Number.isInteger(d.budget) ? d.budget : 0,
    threshold: num(d.threshold), totalLoss: Math.max(0, num(d.total_loss)), decisions, mistakes,
    standInUnknown: d.stand_in_unknown === true,
  };
}

let numFmt = null;
let numLang = '';

// fmt writes a number with at most one decimal, in the page's language
// ("52.4", Polish "52,4").
function fmt(x) {
  if (numLang !== currentLang()) {
    numLang = currentLang();
    try { numFmt = new Intl.NumberFormat(numLang, { maximumFractionDigits: 1 }); } catch { numFmt = null; }
  }
  const n = Math.round(x * 10) / 10;
  return numFmt ? numFmt.format(n) : String(n);
}

// amount is x in the analysis's unit, with the plural the number takes in
// the page's language ("1 point taken", "2 punkty", "5 punktów").
function amount(unit, x) {
  const p = { n: Math.round(x * 10) / 10, x: fmt(x) };
  if (unit === 'points taken') return t('analysis.unit_taken', p);
  if (unit === 'penalty points') return t('analysis.unit_penalty', p);
  return t('analysis.unit_points', p);
}

// currentIndex is the decision the replay's step belongs to: the last one
// whose position (step − 1) is at or before the step on screen; -1 before
// the seat's first decision.
export function currentIndex(decisions, step) {
  let k = -1;
  for (let i = 0; i < decisions.length && decisions[i].step - 1 <= step; i++) k = i;
  return k;
}

// markLabel is a decision's accessible name (and tooltip): its step, round,
// the move in words and its loss, or that it was forced or a stand-in's.
function markLabel(game, a, x) {
  const p = { step: x.step, round: x.round, move: describeMove(game, x.move) };
  if (x.by) return t(x.by === 'timeout' ? 'analysis.mark_standin_timeout' : 'analysis.mark_standin_away', p);
  if (x.forced) return t('analysis.mark_forced', p);
  p.loss = amount(a.unit, x.loss);
  return t(x.mistake ? 'analysis.mark_mistake' : 'analysis.mark', p);
}

// onStripKey moves the focus between the strip's marks with the arrows,
// Home and End (one tab stop for the whole strip: a long game has hundreds
// of decisions); the keys do not reach the replay's own arrow keys.
function onStripKey(ev) {
  const marks = [...ev.currentTarget.querySelectorAll('[data-testid=analysis-mark]')];
  const i = marks.indexOf(document.activeElement);
  if (i < 0) return;
  let j = -1;
  if (ev.key === 'ArrowRight' || ev.key === 'ArrowDown') j = Math.min(marks.length - 1, i + 1);
  else if (ev.key === 'ArrowLeft' || ev.key === 'ArrowUp') j = Math.max(0, i - 1);
  else if (ev.key === 'Home') j = 0;
  else if (ev.key === 'End') j = marks.length - 1;
  if (j < 0) return;
  ev.preventDefault();
  ev.stopPropagation();
  marks[i].tabIndex = -1;
  marks[j].tabIndex = 0;
  marks[j].focus();
}

// strip draws one mark per decision, a row per round when the game had
// several: the bar's height is the loss (against the game's largest),
// mistakes red, forced decisions a hollow dot, a stand-in's moves (a bot
// played for the player) a hollow grey square, the current one outlined.
// A mark moves the replay to the position the seat decided in.
function strip(o, a, cur) {
  const max = Math.max(0, ...a.decisions.map((x) => x.loss));
  const rounds = new Map();
  a.decisions.forEach((x, i) => {
    if (!rounds.has(x.round)) rounds.set(x.round, []);
    const pct = x.forced || x.by || x.loss <= 0 || max <= 0 ? 0 : Math.max(8, Math.round(100 * x.loss / max));
    const kind = x.by ? 'standin' : x.forced ? 'forced' : pct === 0 ? 'zero' : '';
    const cls = ['an-mark', x.mistake ? 'mistake' : '', kind, i === cur ? 'current' : ''].filter(Boolean).join(' ');
    const label = markLabel(o.game, a, x);
    rounds.get(x.round).push(h('button', {
      type: 'button', class: cls, 'data-testid': 'analysis-mark', 'data-key': 'am' + x.step, 'data-step': x.step,
      'data-loss': x.loss, 'data-mistake': x.mistake ? 'true' : undefined, 'data-forced': x.forced ? 'true' : undefined, 'data-by': x.by || undefined,
      'aria-label': label, title: label, 'aria-current': i === cur ? 'step' : undefined,
      tabindex: i === Math.max(cur, 0) ? '0' : '-1', onclick: () => o.goTo(x.step - 1),
    }, h('span', { class: 'an-bar', style: pct ? `height: ${pct}%` : undefined })));
  });
  const many = rounds.size > 1;
  return h('div', { class: 'an-strips', role: 'toolbar', 'aria-label': t('analysis.strip'), 'data-testid': 'analysis-strip', onkeydown: onStripKey },
    [...rounds].map(([k, marks]) => h('div', { class: 'an-round', 'data-key': 'ar' + k },
      many ? h('span', { class: 'an-round-label', 'aria-hidden': 'true' }, t('analysis.round_n', { n: k })) : null,
      h('div', { class: 'an-strip' }, marks))));
}

// detail is what the panel says about one decision: the move played, the
// best move, the loss with its standard error, the top alternatives, and
// buttons to the position and to the move played.
function detail(o, a, x) {
  const mv = (m) => describeMove(o.game, m);
  const head = h('h4', { class: 'an-head' }, t('analysis.decision', { step: x.step, round: x.round }),
    x.mistake ? [' ', h('span', { class: 'badge red' }, t('analysis.mistake'))] : null);
  const rows = [h('dt', {}, t('analysis.played')), h('dd', { 'data-testid': 'analysis-played' }, mv(x.move))];
  let body;
  if (x.by) {
    body = h('p', { class: 'an-note', 'data-testid': 'analysis-standin' }, t(x.by === 'timeout' ? 'analysis.standin_timeout' : 'analysis.standin_away'));
  } else if (x.forced) {
    body = h('p', { class: 'an-note', 'data-testid': 'analysis-forced' }, t('analysis.forced'));
  } else {
    rows.push(h('dt', {}, t('analysis.best')), h('dd', { 'data-testid': 'analysis-best' }, x.best === x.move ? t('analysis.best_is_played', { move: mv(x.best) }) : mv(x.best)));
    rows.push(h('dt', {}, t('analysis.loss')), h('dd', { 'data-testid': 'analysis-loss' }, t('analysis.loss_err', { amount: amount(a.unit, x.loss), err: fmt(x.stderr) })));
    const alts = x.moves.slice(0, TOP).map((m, i) => h('li', { 'data-testid': 'analysis-alt', 'data-key': 'alt' + i },
      h('span', { class: 'an-alt-move' }, mv(m.move)), ' ',
      m.move === x.move ? h('span', { class: 'tag' }, t('analysis.played_tag')) : null,
      h('span', { class: 'an-alt-value' }, t('analysis.alt', { value: amount(a.unit, m.value), loss: fmt(m.loss) }))));
    body = [
      x.pruned ? h('p', { class: 'an-note', 'data-testid': 'analysis-pruned' }, t('analysis.pruned', { n: x.legal })) : null,
      alts.length ? [h('h4', {}, t('analysis.top')), h('ol', { class: 'an-alts' }, alts)] : null,
    ];
  }
  return h('div', { class: 'an-detail', 'data-testid': 'analysis-detail', 'data-step': x.step },
    head, h('dl', { class: 'an-facts' }, rows), body,
    h('div', { class: 'row an-go' },
      h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'analysis-show-position', onclick: () => o.goTo(x.step - 1) }, t('analysis.show_position')),
      h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'analysis-show-move', onclick: () => o.goTo(x.step) }, t('analysis.show_move'))));
}

// analysisPanel is the panel beside the replay. o: {seat (-1: the public
// view), humans ([{seat, name}]: the seats players held), game, step (on
// screen), state (wantAnalysis's, or null), goTo(step), pickSeat(seat)}.
// It returns null when there is nothing to say (no player's seat at all).
export function analysisPanel(o) {
  const title = h('h3', { id: 'analysis-h' }, t('analysis.title'));
  const panel = (...body) => h('section', { class: 'panel analysis-panel', 'data-key': 'analysis', 'data-testid': 'analysis', 'aria-labelledby': 'analysis-h', 'data-status': o.seat < 0 ? 'pick' : o.state ? o.state.status : 'none' }, title, body);
  const note = (key, params) => h('p', { class: 'an-note', 'data-testid': 'analysis-status', role: 'status' }, t(key, params));
  if (o.seat < 0) {
    if (!o.humans.length) return null;
    return panel(note('analysis.pick_seat'), h('div', { class: 'row' }, o.humans.map((s) => h('button', {
      class: 'btn small secondary', type: 'button', 'data-testid': 'analysis-seat-' + s.seat, onclick: () => o.pickSeat(s.seat),
    }, t('analysis.show_seat', { name: s.name })))));
  }
  const a = o.state;
  if (!a) return panel(note('analysis.none'));
  if (a.status === 'loading' || a.status === 'pending') return panel(note('analysis.pending'));
  if (a.status === 'slow') return panel(note('analysis.slow'));
  if (a.status === 'none') return panel(note('analysis.none'));
  if (a.status !== 'ready') return panel(note('analysis.unavailable'));
  const d = a.data;
  if (!d.decisions.length) return panel(note('analysis.no_decisions'));
  const cur = currentIndex(d.decisions, o.step);
  return panel(
    h('p', { class: 'an-note' }, t(d.lowerIsBetter ? 'analysis.method_lower' : 'analysis.method_higher')),
    h('p', { 'data-testid': 'analysis-total' }, t('analysis.total', { amount: amount(d.unit, d.totalLoss) })),
    d.standInUnknown ? h('p', { class: 'an-note', 'data-testid': 'analysis-standin-unknown' }, t('analysis.standin_unknown')) : null,
    strip(o, d, cur),
    h('p', { class: 'an-legend', 'aria-hidden': 'true' },
      h('span', { class: 'an-key' }, h('span', { class: 'an-swatch' }), t('analysis.key_loss')),
      h('span', { class: 'an-key' }, h('span', { class: 'an-swatch mistake' }), t('analysis.key_mistake')),
      h('span', { class: 'an-key' }, h('span', { class: 'an-swatch forced' }), t('analysis.key_forced')),
      d.decisions.some((x) => x.by) ? h('span', { class: 'an-key' }, h('span', { class: 'an-swatch standin' }), t('analysis.key_standin')) : null),
    cur >= 0 ? detail(o, d, d.decisions[cur]) : h('p', { class: 'an-note', 'data-testid': 'analysis-detail-none' }, t('analysis.before_first', { step: d.decisions[0].step })),
    h('h4', {}, t('analysis.mistakes')),
    d.mistakes.length
      ? h('ol', { class: 'an-mistakes', 'data-testid': 'analysis-mistakes' }, d.mistakes.map((x) => h('li', { 'data-key': 'mk' + x.step },
        h('button', { class: 'linkish', type: 'button', 'data-testid': 'analysis-mistake', 'data-step': x.step, onclick: () => o.goTo(x.step - 1) },
          t('analysis.mistake_link', { step: x.step, move: describeMove(o.game, x.move), loss: amount(d.unit, x.loss) })))))
      : h('p', { class: 'an-note', 'data-testid': 'analysis-no-mistakes' }, t('analysis.no_mistakes')));
}
