// The lobby: quick play, the create dialog (casual or rated), an invite
// link, who is online, the player's games in progress (with Resume), the
// live list of tables (filtered by game and rated/casual, with the seated
// players' ratings) and the player's finished games.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../net.js';
import { cardSVG } from '../cards.js';
import { app, send, go, tableData, levels, optionSpecs, joinTable, showError } from '../app.js';
import { game, gameNames, gameTitle, optionLabel, valueLabel } from '../games.js';
import { optionsText } from '../options.js';
import { hasAccount, loadRatings, seatRating, whoIsOnline, ONLINE_EVERY } from '../rated.js';
import { tournamentsPanel } from './tournament.js';
import { accountMark, botBadge } from '../pieces.js';

// The create dialog's choices, kept while the player moves around (the
// clock is not: each table starts with no clock unless asked, see doCreate).
const create = { game: null, opts: {}, seatKinds: {}, private: false, clock: 0, level: 'hard', sit: true, rated: false };

// filter is the table list's choice: a game name or '' (all), and
// 'rated', 'casual' or '' (both).
const filter = { game: '', kind: '' };

function defaultOptions(name) {
  const g = game(name);
  return { ...((g && g.defaultOptions) || {}) };
}

function pickGame(name) {
  create.game = name;
  create.opts = defaultOptions(name);
  create.seatKinds = {};
}

function playersSpec(name) {
  return optionSpecs(name).find((o) => o.name === 'players') || { min: 2, max: 8, default: '4' };
}
function numPlayers() {
  const spec = playersSpec(create.game);
  // A rated table plays the game's defaults, its number of players too.
  return parseInt((!ratedOn() && create.opts.players) || spec.default || spec.min || 4, 10);
}

// defaultText says what an empty number field means: the option's default,
// or for an option whose default is the number of players (Papayoo's
// rounds, Pis Yedili's hands) that number, never just "default".
// The server's doc says it in English ("default = number of players",
// "default 1 for 2–4 players, 2 for 5–8"): only the numbers are taken.
function defaultText(o, players) {
  if (o.default) return t('lobby.default_is', { value: o.default });
  const doc = o.doc || '';
  if (/number of players/.test(doc)) return t('lobby.default_players', { n: players });
  for (const m of doc.matchAll(/(\d+) for (\d+)[–-](\d+)/g)) {
    if (players >= +m[2] && players <= +m[3]) return t('lobby.default_is', { value: m[1] });
  }
  return t('lobby.default');
}

// mayRate says whether the player may play rated (has an account): true,
// false for a guest, undefined until GET /api/account has answered.
let mayRate;

// ratedOn: the rated choice is made and this player may play rated.
function ratedOn() { return create.rated && mayRate === true; }

// ratedChoice is the "Rated" check box of quick play (where 'quick') and
// of the create form ('create'): one choice shared by both. A guest sees
// it disabled, with the way to an account.
function ratedChoice(where) {
  const id = 'rated-' + where;
  const box = h('input', {
    type: 'checkbox', id, 'data-testid': id, checked: ratedOn(), disabled: mayRate !== true,
    onchange: (e) => { create.rated = e.target.checked; renderLobby(); },
  });
  return h('div', { class: 'rated-choice', style: 'margin:.4rem 0 .6rem' },
    h('label', { class: 'check', for: id }, box, t('rated.choice')),
    mayRate === false ? h('a', { href: '#/account', class: 'meta', 'data-testid': 'rated-claim-' + where }, t('rated.claim')) : null);
}

// filterBar chooses which tables the list shows.
function filterBar() {
  const redraw = () => renderLobbyTables();
  return h('div', { class: 'row', 'data-testid': 'lobby-filter' },
    h('select', { 'data-testid': 'filter-game', 'aria-label': t('lobby.game'), onchange: (e) => { filter.game = e.target.value; redraw(); } },
      h('option', { value: '', selected: filter.game === '' }, t('rated.filter_all_games')),
      gameNames().map((g) => h('option', { value: g, selected: filter.game === g }, gameTitle(g)))),
    h('select', { 'data-testid': 'filter-kind', 'aria-label': t('rated.filter_kind'), onchange: (e) => { filter.kind = e.target.value; redraw(); } },
      h('option', { value: '', selected: filter.kind === '' }, t('rated.filter_both')),
      h('option', { value: 'rated', selected: filter.kind === 'rated' }, t('rated.filter_rated')),
      h('option', { value: 'casual', selected: filter.kind === 'casual' }, t('rated.filter_casual'))));
}

// shown applies the filter to a table of the lobby list.
function shown(tb) {
  if (filter.game && tb.game !== filter.game) return false;
  if (filter.kind === 'rated' && !tb.rated) return false;
  if (filter.kind === 'casual' && tb.rated) return false;
  return true;
}

// seatLabel is a seat of the list: its player's name (a link to their
// profile), the account's mark and, when known, their rating in the
// table's game (provisional ones marked "?").
function seatLabel(tb, s) {
  if (s.kind === 'empty') return h('span', {}, t('lobby.free_seat'));
  const r = seatRating(tb.game, s);
  const name = s.player
    ? h('a', { href: '#/players/' + encodeURIComponent(s.player), 'data-testid': 'seat-profile' }, displayName(s.name))
    : displayName(s.name);
  return h('span', { class: 'seat-name' }, name, accountMark(s, 'seat-account'),
    r ? h('span', { class: 'meta', 'data-testid': 'seat-rating', title: r.provisional ? t('ratings.provisional_title') : undefined },
      ' (', r.provisional ? t('ratings.provisional_value', { rating: r.rating }) : String(r.rating), ')') : null);
}

// onlineTimer draws who is online again while the lobby is shown, so the
// list does not stay as it was when the lobby was drawn.
let onlineTimer = null;

// renderOnline draws who is online (GET /api/online, at most every 10 s).
function renderOnline() {
  const box = document.getElementById('lobby-online');
  if (!box) return; // the lobby is gone: the timer stops here
  if (!onlineTimer) onlineTimer = setTimeout(() => { onlineTimer = null; renderOnline(); }, ONLINE_EVERY);
  const o = whoIsOnline(renderOnline);
  if (!o) return;
  const more = o.count - (o.players || []).length;
  replace(box, h('p', { 'data-testid': 'online-count' }, t('rated.online_count', { n: o.count })),
    h('ul', { class: 'online', 'data-testid': 'online-list' }, (o.players || []).map((p) =>
      h('li', {}, h('a', { href: '#/players/' + encodeURIComponent(p.player) }, p.name || p.player), accountMark(p, 'online-account'),
        p.bot_account ? botBadge('online-bot') : null))),
    more > 0 ? h('p', { class: 'meta' }, t('rated.online_more', { n: more })) : null);
}

export function renderLobby() {
  if (!create.game || !game(create.game)) pickGame(gameNames()[0]);
  const main = document.getElementById('app');
  mayRate = hasAccount(() => { if (document.getElementById('lobby-tables')) renderLobby(); });
  const quickLevel = h('select', { id: 'quick-level', 'data-testid': 'quick-level', 'aria-label': t('lobby.bot_level') },
    levels().map((l) => h('option', { value: l, selected: l === create.level }, t('level.' + l))));
  quickLevel.onchange = () => { create.level = quickLevel.value; };
  const quick = h('section', { class: 'panel', 'aria-labelledby': 'quick-h' },
    h('h2', { id: 'quick-h' }, t('lobby.quick')),
    h('p', {}, t('lobby.quick_intro')),
    h('div', { class: 'quick' }, gameNames().map((g) => h('button', {
      class: 'btn', type: 'button', 'data-testid': 'quick-' + g,
      onclick: async () => {
        try {
          // Rated: no options at all, the server plays the game's defaults.
          const body = ratedOn() ? { game: g, options: {}, level: quickLevel.value, rated: true } : { game: g, options: defaultOptions(g), level: quickLevel.value };
          const tb = await api('POST', '/api/quickplay', body);
          go('#/table/' + tb.id);
        } catch (err) { showError(err); }
      },
    }, cardSVG(game(g).icon), gameTitle(g)))),
    h('label', { class: 'field', for: 'quick-level', style: 'margin-top:.6rem' }, h('span', {}, t('lobby.bot_level')), quickLevel),
    ratedChoice('quick'));

  const invite = h('input', { id: 'invite-link', class: 'grow', 'data-testid': 'invite-input', placeholder: t('lobby.invite_placeholder'), 'aria-label': t('lobby.invite') });
  const joinInvite = h('form', {
    class: 'row',
    onsubmit: (e) => {
      e.preventDefault();
      const v = invite.value.trim();
      let id = v, code = '';
      try {
        const u = new URL(v, location.href);
        if (u.searchParams.get('table')) { id = u.searchParams.get('table'); code = u.searchParams.get('invite') || ''; }
      } catch { /* a bare id */ }
      if (!id) return;
      if (code) app.invites.set(id, code);
      go('#/table/' + id);
    },
  }, invite, h('button', { class: 'btn secondary', type: 'submit', 'data-testid': 'invite-go' }, t('lobby.open_link')));

  replace(main, h('div', { class: 'lobby' },
    h('div', { class: 'stack' }, quick, renderCreate(), h('section', { class: 'panel' }, h('h2', {}, t('lobby.invite')), joinInvite)),
    h('div', { class: 'stack' },
      h('section', { class: 'panel', 'aria-labelledby': 'mine-h', id: 'mine-panel', hidden: true }, h('h2', { id: 'mine-h' }, t('lobby.in_progress')), h('div', { id: 'in-progress' })),
      h('section', { class: 'panel', 'aria-labelledby': 'tables-h' }, h('h2', { id: 'tables-h' }, t('lobby.tables')), filterBar(), h('div', { id: 'lobby-tables' })),
      tournamentsPanel(),
      h('section', { class: 'panel', 'aria-labelledby': 'online-h' }, h('h2', { id: 'online-h' }, t('rated.online')), h('div', { id: 'lobby-online' })),
      h('section', { class: 'panel', 'aria-labelledby': 'history-h' }, h('h2', { id: 'history-h' }, t('lobby.history')), h('div', { id: 'history' }))),
  ));
  renderLobbyTables();
  loadHistory();
}

function renderCreate() {
  const specs = optionSpecs(create.game);
  const hidden = game(create.game).hiddenOptions || [];
  const n = numPlayers();
  const form = h('form', {
    class: 'panel', 'aria-labelledby': 'create-h', 'data-testid': 'create-form',
    onsubmit: (e) => { e.preventDefault(); doCreate(); },
  });
  const gamePick = h('div', { class: 'game-pick', role: 'group', 'aria-label': t('lobby.game') },
    gameNames().map((g) => h('button', {
      type: 'button', 'aria-pressed': String(create.game === g), 'data-testid': 'create-game-' + g,
      onclick: () => { pickGame(g); renderLobby(); },
    }, gameTitle(g))));
  const fields = [];
  for (const o of specs) {
    if (hidden.includes(o.name) || ratedOn()) continue; // rated: the defaults, not shown as choices
    const id = 'opt-' + o.name;
    const label = optionLabel(create.game, o.name);
    const cur = create.opts[o.name] !== undefined ? create.opts[o.name] : o.default;
    let input;
    if (o.kind === 'bool') {
      input = h('input', { type: 'checkbox', id, 'data-testid': id, checked: cur === 'true', onchange: (e) => { create.opts[o.name] = e.target.checked ? 'true' : 'false'; } });
      fields.push(h('label', { class: 'check', for: id }, input, label));
      continue;
    }
    if (o.kind === 'enum') {
      input = h('select', { id, 'data-testid': id, onchange: (e) => { create.opts[o.name] = e.target.value; } },
        (o.values || []).map((v) => h('option', { value: v, selected: v === cur }, valueLabel(create.game, v))));
    } else if (o.name === 'players') {
      const vals = [];
      for (let i = o.min || 2; i <= (o.max || 8); i++) vals.push(i);
      input = h('select', { id, 'data-testid': id, onchange: (e) => { create.opts.players = e.target.value; renderLobby(); } },
        vals.map((v) => h('option', { value: v, selected: String(v) === String(n) }, String(v))));
    } else {
      input = h('input', {
        id, 'data-testid': id, type: 'number', min: o.min || undefined, max: o.max || undefined, value: cur || '', placeholder: cur ? undefined : defaultText(o, n),
        oninput: (e) => { if (e.target.value === '') delete create.opts[o.name]; else create.opts[o.name] = e.target.value; },
      });
    }
    fields.push(h('label', { class: 'field', for: id }, h('span', {}, label), input));
  }
  const seats = [];
  for (let s = 0; s < n; s++) {
    if (s === 0 && create.sit) {
      seats.push(h('div', { class: 'seat-row' }, h('span', {}, t('seat.n', { n: 1 })), h('strong', {}, t('lobby.you'))));
      continue;
    }
    const cur = create.seatKinds[s] || (s === 0 ? 'open' : 'bot:' + create.level);
    const id = 'seat-kind-' + s;
    seats.push(h('div', { class: 'seat-row' },
      h('label', { for: id }, t('seat.n', { n: s + 1 })),
      h('select', { id, 'data-testid': id, onchange: (e) => { create.seatKinds[s] = e.target.value; } },
        h('option', { value: 'open', selected: cur === 'open' }, t('lobby.seat_open')),
        levels().map((l) => h('option', { value: 'bot:' + l, selected: cur === 'bot:' + l }, t('lobby.seat_bot', { level: t('level.' + l) })))),
    ));
  }
  const clocks = [0, 15000, 30000, 60000, 120000];
  append(form,
    h('h2', { id: 'create-h' }, t('lobby.create')),
    gamePick,
    ratedChoice('create'),
    ratedOn() ? h('p', { class: 'meta', 'data-testid': 'rated-note' }, t('rated.note')) : null,
    fields,
    h('fieldset', { class: 'seats-cfg' }, h('legend', {}, t('lobby.seats')),
      h('label', { class: 'check', for: 'sit' }, h('input', { type: 'checkbox', id: 'sit', 'data-testid': 'create-sit', checked: create.sit, onchange: (e) => { create.sit = e.target.checked; renderLobby(); } }), t('lobby.sit')),
      seats),
    h('label', { class: 'field', for: 'clock' }, h('span', {}, t('lobby.clock')),
      h('select', { id: 'clock', 'data-testid': 'create-clock', onchange: (e) => { create.clock = +e.target.value; } },
        clocks.map((c) => h('option', { value: c, selected: c === create.clock }, c ? t('lobby.clock_s', { s: c / 1000 }) : t('lobby.no_clock'))))),
    h('label', { class: 'check', for: 'private' }, h('input', { type: 'checkbox', id: 'private', 'data-testid': 'create-private', checked: create.private, onchange: (e) => { create.private = e.target.checked; } }), t('lobby.private')),
    ratedOn() ? null : h('label', { class: 'check', for: 'end-when-empty' }, h('input', { type: 'checkbox', id: 'end-when-empty', 'data-testid': 'create-end-when-empty', checked: !!create.endWhenEmpty, onchange: (e) => { create.endWhenEmpty = e.target.checked; } }), t('lobby.end_when_empty')),
    h('button', { class: 'btn', type: 'submit', 'data-testid': 'create-submit' }, t('lobby.create_button')),
  );
  return form;
}

function append(e, ...children) {
  for (const c of children.flat()) if (c) e.appendChild(c);
}

function doCreate() {
  const n = numPlayers();
  const bots = {};
  for (let s = 0; s < n; s++) {
    if (s === 0 && create.sit) continue;
    const k = create.seatKinds[s] || (s === 0 ? 'open' : 'bot:' + create.level);
    if (k.startsWith('bot:')) bots[String(s)] = k.slice(4);
  }
  const rated = ratedOn();
  const options = {};
  if (!rated) { // a rated table takes no options: the server plays the game's defaults
    for (const [k, v] of Object.entries(create.opts)) if (v !== '' && v !== undefined) options[k] = String(v);
    if (!options.players) options.players = String(n);
  }
  const msg = { type: 'create', game: create.game, options, private: create.private, clock_ms: create.clock, bot_level: create.level, seat: create.sit ? 0 : -1, bots };
  if (rated) msg.rated = true; // it ends (never pauses) when every human has left
  else if (create.endWhenEmpty) msg.when_empty = 'end'; // else the default: pause when every player has left
  send(msg, (ans) => {
    if (ans.type !== 'created') return;
    const tb = ans.summary; // created: table is the id, summary the table (protocol 2)
    // A clock is chosen for one table: the next one starts without, so
    // nobody is put on a clock they did not choose this time.
    create.clock = 0;
    if (tb.invite) app.invites.set(tb.id, tb.invite);
    tableData(tb.id).summary = tb;
    go('#/table/' + tb.id);
  });
}

// renderLobbyTables redraws the live list (on every lobby message).
export function renderLobbyTables() {
  const box = document.getElementById('lobby-tables');
  if (!box) return;
  renderOnline();
  const all = app.lobby || [];
  // One batch per game for the seated players not cached: redrawn when
  // they arrive (the cache keeps this from asking again at once).
  loadRatings(all, () => { if (document.body.contains(box)) renderLobbyTables(); });
  const list = all.filter(shown);
  if (!list.length) {
    replace(box, h('p', { class: 'empty', 'data-testid': 'no-tables' }, all.length ? t('rated.filter_none') : t('lobby.no_tables')));
    return;
  }
  replace(box, h('table', { class: 'list', 'data-testid': 'lobby-tables' },
    h('thead', {}, h('tr', {}, h('th', {}, t('lobby.game')), h('th', {}, t('lobby.players')), h('th', {}, t('lobby.status')), h('th', {}, h('span', { class: 'sr-only' }, t('lobby.actions'))))),
    h('tbody', {}, list.map((tb) => h('tr', { 'data-testid': 'lobby-row', 'data-table': tb.id, 'data-rated': String(!!tb.rated) },
      h('td', {}, gameTitle(tb.game), tb.rated ? h('span', { class: 'badge gold', style: 'margin-left:.4rem', 'data-testid': 'rated-badge', title: t('rated.badge_title') }, t('rated.badge')) : null,
        h('div', { class: 'meta' }, tb.rated ? t('rated.defaults') : listed(tb), tb.clock_ms ? ` · ${t('lobby.clock')}: ${tb.clock_ms / 1000} s` : '')),
      h('td', {}, (tb.seats || []).flatMap((s, i) => i ? [', ', seatLabel(tb, s)] : [seatLabel(tb, s)])),
      h('td', {}, t('status.' + tb.status)),
      h('td', { class: 'row' },
        tb.status === 'open' && tb.free > 0 ? h('button', { class: 'btn small', type: 'button', 'data-testid': 'join-' + tb.id, onclick: () => joinTable(tb.id, -1) }, t('lobby.join')) : null,
        h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'watch-' + tb.id, onclick: () => go('#/table/' + tb.id) }, t('lobby.watch'))),
    )))));
}

// listed is the line of options the game shows beside its name in the list.
function listed(tb) {
  const g = game(tb.game);
  return optionsText(tb.game, tb.options, (g && g.listOptions) || []);
}

function displayName(n) {
  if (!n) return '';
  if (n.startsWith('bot:')) return t('bot.short', { level: t('level.' + n.slice(4)) });
  return n;
}

// HISTORY_SHOWN bounds the finished games listed (the server sends the
// latest 200).
const HISTORY_SHOWN = 10;

// loadHistory fills the player's games in progress (with Resume: the seat
// is still theirs, a bot plays it while they are away) and their finished
// games (with the replay), from GET /api/history.
async function loadHistory() {
  const box = document.getElementById('history');
  const mine = document.getElementById('in-progress');
  if (!box || !mine) return;
  let all = [];
  try {
    all = (await api('GET', '/api/history')).games || [];
  } catch { /* shown as empty */ }
  if (!document.body.contains(box)) return;
  const going = all.filter((g) => (g.status === 'playing' || g.status === 'open') && g.seat >= 0);
  const panel = document.getElementById('mine-panel');
  if (panel) panel.hidden = !going.length;
  replace(mine, going.length ? h('ul', { class: 'games', 'data-testid': 'in-progress' }, going.map((g) => h('li', { 'data-table': g.id },
    h('div', { class: 'what' }, h('strong', {}, gameTitle(g.game)), ' ', h('span', { class: 'tag' }, t('status.' + g.status)),
      h('div', { class: 'meta' }, [optionsText(g.game, g.options, (game(g.game) || {}).listOptions || []), others(g)].filter(Boolean).join(' · '))),
    h('button', { class: 'btn small', type: 'button', 'data-testid': 'resume-' + g.id, onclick: () => go('#/table/' + g.id) }, t('lobby.resume'))))) : null);
  const done = all.filter((g) => g.status === 'finished').slice(0, HISTORY_SHOWN);
  if (!done.length) { replace(box, h('p', { class: 'empty' }, t('lobby.no_history'))); return; }
  replace(box, h('ul', { class: 'games', 'data-testid': 'history-list' }, done.map((g) => h('li', { 'data-table': g.id },
    h('div', { class: 'what' }, h('strong', {}, gameTitle(g.game)), ' ', h('span', { class: 'tag' + (g.won ? ' won' : '') }, g.won ? t('lobby.won') : t('lobby.lost')),
      g.stand_in ? h('span', { class: 'tag', 'data-testid': 'stand-in', title: t('lobby.stand_in_title') }, t('lobby.stand_in')) : null,
      h('div', { class: 'meta' }, [optionsText(g.game, g.options, (game(g.game) || {}).listOptions || []), others(g), when(g.finished)].filter(Boolean).join(' · '))),
    h('a', { class: 'btn small secondary', href: '#/replay/' + g.id, 'data-testid': 'replay-' + g.id }, t('lobby.replay'))))));
}

// others names the player's opponents in a game of the history.
function others(g) {
  return (g.seats || []).filter((_, i) => i !== g.seat).map(displayName).join(', ');
}

// when is a date in the page's language, or "" when there is none.
function when(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (isNaN(d)) return '';
  try { return d.toLocaleDateString(document.documentElement.lang || undefined, { day: 'numeric', month: 'short' }); } catch { return ''; }
}
