// Duplicate tournaments (docs/tournaments.md): the lobby's panel (the
// tournaments of the room and the form that creates one) and the page of
// one tournament (#/tournament/ID): the player's deals to play, the live
// standings and, for every closed deal, its comparison with a link to each
// entrant's record. Everything comes from the HTTP API; the page asks
// again every few seconds while it is on screen, so the standings move as
// the others finish their deals.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../net.js';
import { app, go, levels, optionSpecs, showError, onRoute } from '../app.js';
import { game, gameNames, gameTitle, optionLabel, valueLabel } from '../games.js';
import { optionsText } from '../options.js';

// The bounds of the form; the server checks them again (docs/tournaments.md).
const MAX_DEALS = 12;
const MAX_ENTRANTS = 64;
const MIN_MINUTES = 5;
const MAX_MINUTES = 10080;
// POLL_MS is how often the page of a tournament asks for its standings.
const POLL_MS = 5000;
// ONE_DEAL are options the server sets itself for a tournament (one deal
// of cards: games.Game.Deal), so the form does not offer them.
const ONE_DEAL = ['rounds', 'hands'];

// The form's choices, kept while the player moves around.
const form = { open: false, game: '', opts: {}, deals: 4, max: 8, level: 'medium', start: 'full', at: '', minutes: 60 };

// ---------- the lobby's panel ----------

// tournamentsPanel is the lobby's section of tournaments; it fills itself
// from GET /api/tournaments.
// It draws the list it last had at once (the lobby is drawn again on
// many a click), then the fresh one.
let lastList = null;

export function tournamentsPanel() {
  const box = h('div', { id: 'lobby-tournaments' });
  const sec = h('section', { class: 'panel', 'aria-labelledby': 'tournaments-h', 'data-testid': 'tournaments-panel' },
    h('h2', { id: 'tournaments-h' }, t('tournament.list_title')), box);
  drawPanel(box, lastList);
  api('GET', '/api/tournaments').then((d) => { lastList = d.tournaments || []; })
    .catch(() => { lastList = lastList || []; })
    .finally(() => { if (document.body.contains(box)) drawPanel(box, lastList); });
  return sec;
}

function statusText(st) {
  return {
    open: t('tournament.status_open'), running: t('tournament.status_running'),
    finished: t('tournament.status_finished'), cancelled: t('tournament.status_cancelled'),
  }[st] || st;
}

function optionsLine(tn) {
  const g = game(tn.game);
  return optionsText(tn.game, tn.options, (g && g.listOptions) || []);
}

function drawPanel(box, list) {
  const rows = list === null ? h('p', { class: 'empty' }, t('tournament.loading'))
    : !list.length ? h('p', { class: 'empty', 'data-testid': 'no-tournaments' }, t('tournament.none'))
      : h('ul', { class: 'games', 'data-testid': 'tournament-list' }, list.map((tn) => h('li', { 'data-testid': 'tournament-row', 'data-tournament': tn.id },
        h('div', { class: 'what' }, h('strong', {}, gameTitle(tn.game)), ' ', h('span', { class: 'tag' }, statusText(tn.status)),
          h('div', { class: 'meta' }, [optionsLine(tn), t('tournament.deals_n', { n: tn.deals }),
            t('tournament.entrants_of', { n: tn.entrants, max: tn.max_entrants }), tn.owner_name].filter(Boolean).join(' · '))),
        h('a', { class: 'btn small secondary', href: '#/tournament/' + tn.id, 'data-testid': 'tournament-open-' + tn.id }, t('tournament.open')))));
  const toggle = h('button', {
    class: 'btn small' + (form.open ? ' secondary' : ''), type: 'button', 'data-testid': 'tournament-new', 'aria-expanded': String(form.open),
    onclick: () => { form.open = !form.open; drawPanel(box, list); },
  }, form.open ? t('tournament.cancel') : t('tournament.new'));
  replace(box, rows, h('div', { class: 'row', style: 'margin-top:.6rem' }, toggle), form.open ? createForm(box, list) : null);
}

function numberField(id, label, value, min, max, set) {
  return h('label', { class: 'field', for: id }, h('span', {}, label),
    h('input', { id, 'data-testid': id, type: 'number', min, max, value: String(value), oninput: (e) => set(e.target.value) }));
}

// createForm is the form that creates a tournament (POST /api/tournaments).
function createForm(box, list) {
  if (!form.game || !game(form.game)) { form.game = gameNames()[0]; form.opts = {}; }
  const fields = [];
  for (const o of optionSpecs(form.game)) {
    if (ONE_DEAL.includes(o.name) || (game(form.game).hiddenOptions || []).includes(o.name)) continue;
    const id = 'tournament-opt-' + o.name;
    const cur = form.opts[o.name] !== undefined ? form.opts[o.name] : o.default;
    const set = (v) => { if (v === '' || v === undefined) delete form.opts[o.name]; else form.opts[o.name] = String(v); };
    let input;
    if (o.kind === 'bool') {
      fields.push(h('label', { class: 'check', for: id }, h('input', { type: 'checkbox', id, 'data-testid': id, checked: cur === 'true', onchange: (e) => set(e.target.checked ? 'true' : 'false') }), optionLabel(form.game, o.name)));
      continue;
    }
    if (o.kind === 'enum') {
      input = h('select', { id, 'data-testid': id, onchange: (e) => set(e.target.value) },
        (o.values || []).map((v) => h('option', { value: v, selected: v === cur }, valueLabel(form.game, v))));
    } else {
      input = h('input', { id, 'data-testid': id, type: 'number', min: o.min || undefined, max: o.max || undefined, value: cur || '', oninput: (e) => set(e.target.value) });
    }
    fields.push(h('label', { class: 'field', for: id }, h('span', {}, optionLabel(form.game, o.name)), input));
  }
  const at = h('input', { id: 'tournament-at', 'data-testid': 'tournament-at', type: 'datetime-local', value: form.at, disabled: form.start !== 'at', oninput: (e) => { form.at = e.target.value; } });
  const startChoice = (v, label) => h('label', { class: 'check', for: 'tournament-start-' + v },
    h('input', { type: 'radio', name: 'tournament-start', id: 'tournament-start-' + v, 'data-testid': 'tournament-start-' + v, checked: form.start === v,
      onchange: () => { form.start = v; drawPanel(box, list); } }), label);
  return h('form', {
    class: 'stack', 'data-testid': 'tournament-form', 'aria-label': t('tournament.new'),
    onsubmit: (e) => { e.preventDefault(); submit(); },
  },
  h('label', { class: 'field', for: 'tournament-game' }, h('span', {}, t('lobby.game')),
    h('select', { id: 'tournament-game', 'data-testid': 'tournament-game', onchange: (e) => { form.game = e.target.value; form.opts = {}; drawPanel(box, list); } },
      gameNames().map((g) => h('option', { value: g, selected: g === form.game }, gameTitle(g))))),
  fields,
  numberField('tournament-deals', t('tournament.deals'), form.deals, 1, MAX_DEALS, (v) => { form.deals = v; }),
  numberField('tournament-max', t('tournament.max_entrants'), form.max, 1, MAX_ENTRANTS, (v) => { form.max = v; }),
  numberField('tournament-minutes', t('tournament.deal_minutes'), form.minutes, MIN_MINUTES, MAX_MINUTES, (v) => { form.minutes = v; }),
  h('label', { class: 'field', for: 'tournament-level' }, h('span', {}, t('lobby.bot_level')),
    h('select', { id: 'tournament-level', 'data-testid': 'tournament-level', onchange: (e) => { form.level = e.target.value; } },
      levels().map((l) => h('option', { value: l, selected: l === form.level }, t('level.' + l))))),
  h('fieldset', {}, h('legend', {}, t('tournament.start')), startChoice('full', t('tournament.start_full')), startChoice('at', t('tournament.start_at')), at),
  h('p', { class: 'meta' }, t('tournament.explain')),
  h('button', { class: 'btn', type: 'submit', 'data-testid': 'tournament-create' }, t('tournament.create')));
}

async function submit() {
  const body = {
    game: form.game, options: { ...form.opts }, deals: parseInt(form.deals, 10) || 0, max_entrants: parseInt(form.max, 10) || 0,
    deal_minutes: parseInt(form.minutes, 10) || 0, bot_level: form.level,
  };
  if (form.start === 'at') {
    const d = new Date(form.at);
    if (isNaN(d)) { showError({ code: 'bad_request', message: t('tournament.start_at') }); return; }
    body.start_at = d.toISOString();
  }
  try {
    const tn = await api('POST', '/api/tournaments', body);
    form.open = false;
    go('#/tournament/' + tn.id);
  } catch (err) { showError(err); }
}

// ---------- the page of one tournament ----------

// view is the tournament on screen and what the server last said of it.
const view = { id: '', data: null, timer: null, missing: false };

// startTournament is called on every visit of the route.
export function startTournament(id) {
  view.id = id;
  view.data = null;
  view.missing = false;
  load(id);
  if (!view.timer) {
    view.timer = setInterval(() => {
      if (onRoute('tournament')) load(view.id);
      else { clearInterval(view.timer); view.timer = null; }
    }, POLL_MS);
  }
}

async function load(id) {
  try {
    const d = await api('GET', '/api/tournaments/' + encodeURIComponent(id));
    if (id !== view.id) return;
    view.data = d;
  } catch (err) {
    if (id !== view.id) return;
    if (err.status === 404) view.missing = true;
    else if (!view.data) showError(err);
  }
  if (onRoute('tournament', id)) renderTournament();
}

function when(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (isNaN(d)) return '';
  try { return d.toLocaleString(document.documentElement.lang || undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }); } catch { return d.toISOString(); }
}

// scoreText is a comparison with the field: signed, to hundredths.
function scoreText(s) {
  const r = Math.round(s * 100) / 100;
  return r > 0 ? '+' + r : String(r);
}

async function join(id) {
  try {
    view.data = await api('POST', '/api/tournaments/' + encodeURIComponent(id) + '/join');
    renderTournament();
  } catch (err) { showError(err); }
}

async function play(id, deal) {
  try {
    const p = await api('POST', `/api/tournaments/${encodeURIComponent(id)}/deals/${deal}/play`);
    app.tournaments.set(p.table, id); // the final scores lead back here
    go('#/table/' + p.table);
  } catch (err) { showError(err); }
}

// recordLink opens an entrant's record of a deal (with the invite that
// the standings give once the deal is closed).
function recordLink(cell, label, testid) {
  return h('a', {
    href: '#/replay/' + cell.table, 'data-testid': testid,
    onclick: () => { if (cell.invite) app.invites.set(cell.table, cell.invite); },
  }, label);
}

// myDeals lists the player's deals with what can be done with each.
function myDeals(d) {
  const row = d.standings[d.me];
  return h('table', { class: 'list', 'data-testid': 'tournament-my-deals' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('tournament.deal')), h('th', { scope: 'col' }, t('tournament.your_seat')),
      h('th', { scope: 'col' }, t('tournament.deadline')), h('th', { scope: 'col' }, t('tournament.result')), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('lobby.actions'))))),
    h('tbody', {}, d.schedule.map((s) => {
      const c = row.deals[s.deal];
      let action = null;
      // The server holds a deal's records, one's own too, until the deal
      // closes: every entrant plays these cards (docs/tournaments.md).
      if (c.table && c.over && s.closed) action = recordLink(c, t('tournament.replay'), 'tournament-replay-' + s.deal);
      else if (c.table && c.over) action = h('span', { class: 'meta', 'data-testid': 'tournament-replay-later-' + s.deal }, t('tournament.replay_later'));
      else if (c.table) action = h('button', { class: 'btn small', type: 'button', 'data-testid': 'tournament-continue-' + s.deal, onclick: () => { app.tournaments.set(c.table, d.id); go('#/table/' + c.table); } }, t('tournament.continue'));
      else if (d.status === 'running' && !s.closed) action = h('button', { class: 'btn small', type: 'button', 'data-testid': 'tournament-play-' + s.deal, onclick: () => play(d.id, s.deal) }, t('tournament.play'));
      return h('tr', { 'data-deal': String(s.deal) },
        // data-label: a phone shows each value with its column's name
        // instead of the header row (app.css).
        h('td', { 'data-label': t('tournament.deal') }, String(s.deal + 1)), h('td', {}, t('seat.n', { n: s.seat + 1 })),
        h('td', { 'data-label': t('tournament.deadline') }, when(s.deadline)),
        h('td', { 'data-testid': 'tournament-my-result-' + s.deal, 'data-label': t('tournament.result') }, cellText(c)), h('td', {}, action));
    })));
}

function cellText(c) {
  if (c.state === 'played') return t('tournament.cell', { points: c.points, score: scoreText(c.score) });
  if (c.state === 'missed') return t('tournament.cell_missed', { points: c.points, score: scoreText(c.score) });
  return '–';
}

// standings is the table of ranks, totals and each deal's comparison.
function standings(d) {
  return h('table', { class: 'list', 'data-testid': 'tournament-standings' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('ratings.rank')), h('th', { scope: 'col' }, t('ratings.player')),
      h('th', { scope: 'col' }, t('tournament.total')),
      d.schedule.map((s) => h('th', { scope: 'col' }, t('tournament.deal_n', { n: s.deal + 1 }))))),
    h('tbody', {}, [...d.standings].sort((a, b) => a.rank - b.rank).map((r) => h('tr', { 'data-testid': 'tournament-standing', 'data-player': r.player, style: app.me && r.player === app.me.player ? 'font-weight:700' : '' },
      h('td', {}, String(r.rank)), h('td', {}, r.name), h('td', { 'data-testid': 'tournament-total' }, scoreText(r.total)),
      r.deals.map((c, i) => h('td', { title: c.state === 'pending' ? '' : t('tournament.points', { n: c.points }) },
        c.state === 'pending' ? '–' : (c.table && c.over && d.schedule[i].closed ? recordLink(c, scoreText(c.score), `tournament-record-${i}-${r.player}`) : scoreText(c.score))))))));
}

// comparisons show each closed deal: the entrants by their result on it.
function comparisons(d) {
  const closed = d.schedule.filter((s) => s.closed);
  if (!closed.length || !d.standings.length) return null;
  return h('section', { 'data-testid': 'tournament-comparisons' }, h('h2', {}, t('tournament.comparison')),
    closed.map((s) => h('div', { 'data-testid': 'tournament-deal-' + s.deal },
      h('h3', {}, t('tournament.deal_n', { n: s.deal + 1 }), ' · ', t('seat.n', { n: s.seat + 1 })),
      h('ul', { class: 'games' }, [...d.standings].sort((a, b) => b.deals[s.deal].score - a.deals[s.deal].score).map((r) => {
        const c = r.deals[s.deal];
        return h('li', {}, h('div', { class: 'what' }, h('strong', {}, r.name), ' ', cellText(c)),
          c.table && c.over ? recordLink(c, t('tournament.record'), `tournament-deal-record-${s.deal}-${r.player}`) : null);
      })))));
}

// scroller lets a wide table (twelve deals) scroll sideways on a phone
// instead of widening the page.
function scroller(table) {
  return h('div', { style: 'overflow-x:auto' }, table);
}

// renderTournament draws the page.
export function renderTournament() {
  const main = document.getElementById('app');
  const d = view.data;
  const parts = [];
  if (view.missing) {
    parts.push(h('h1', {}, t('tournament.heading_none')), h('p', { class: 'empty' }, t('error.no_tournament')));
  } else if (!d) {
    parts.push(h('p', { class: 'empty' }, t('tournament.loading')));
  } else {
    parts.push(h('h1', {}, t('tournament.heading', { game: gameTitle(d.game) })),
      h('p', { 'data-testid': 'tournament-status', 'data-status': d.status }, h('span', { class: 'tag' }, statusText(d.status)), ' ',
        t('tournament.entrants_of', { n: d.entrants, max: d.max_entrants })),
      h('p', { class: 'meta' }, [optionsLine(d), t('tournament.deals_n', { n: d.deals }), t('tournament.bots', { level: t('level.' + d.bot_level) }),
        t('tournament.per_deal', { n: d.deal_minutes }),
        d.started ? t('tournament.started', { when: when(d.started) }) : d.start_at ? t('tournament.starts', { when: when(d.start_at) }) : t('tournament.start_full'),
        d.ends ? t('tournament.ends', { when: when(d.ends) }) : ''].filter(Boolean).join(' · ')),
      h('p', { class: 'meta' }, d.higher_wins ? t('tournament.explain_higher') : t('tournament.explain_lower')));
    if (d.status === 'open' && d.standings.length) {
      parts.push(h('p', { 'data-testid': 'tournament-entrants' }, t('tournament.entrants_list', { names: d.standings.map((r) => r.name).join(', ') })));
    }
    if (d.status === 'open' && d.me < 0 && d.entrants < d.max_entrants) {
      parts.push(h('button', { class: 'btn', type: 'button', 'data-testid': 'tournament-join', onclick: () => join(d.id) }, t('tournament.join')));
    } else if (d.status === 'open' && d.me >= 0) {
      parts.push(h('p', { 'data-testid': 'tournament-waiting' }, t('tournament.waiting')));
    }
    if (d.me >= 0 && d.standings[d.me] && d.status !== 'open' && d.status !== 'cancelled') {
      parts.push(h('h2', {}, t('tournament.your_deals')), scroller(myDeals(d)));
    }
    if (d.standings.length && d.status !== 'open') parts.push(h('h2', {}, t('tournament.standings')), scroller(standings(d)));
    parts.push(comparisons(d));
  }
  parts.push(h('p', {}, h('a', { href: '#/' }, t('table.back'))));
  replace(main, h('div', { class: 'panel', style: 'max-width:900px;margin:1rem auto', 'data-testid': 'tournament-view', 'data-tournament': view.id }, ...parts));
}
