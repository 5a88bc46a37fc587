// Cardroom's browser client: lobby, tables, replays.
import { h, replace } from './dom.js';
import { t, setLang, detectLang, currentLang, LANGS, LANG_NAMES, onLangChange, renderRich } from './i18n.js';
import { Conn, api } from './net.js';
import { cardSVG } from './cards.js';
import { describeMove, seatName, pick, cardEl } from './util.js';
import papayoo from './papayoo.js';
import rum500 from './rum500.js';
import pisyedili from './pisyedili.js';

const GAMES = { papayoo, rum500, pisyedili };
const GAME_NAMES = ['papayoo', 'rum500', 'pisyedili'];

const app = {
  me: null,          // {player, name}
  conn: null,
  online: false,
  lobby: [],         // table summaries
  lobbySub: false,
  gamesInfo: null,   // /api/games
  tables: new Map(), // id → {states: Map(seat → state), summary, ui}
  route: null,
  invites: new Map(), // table id → invite code
  sound: localStorage.getItem('cardroom.sound') !== 'off',
  clockTimer: null,
  errors: [],        // the last errors shown (for tests and debugging)
};
window.cardroom = app; // for tests and debugging

// ---------- boot ----------

async function boot() {
  await setLang(detectLang(), false);
  onLangChange(() => { renderHeader(); render(); });
  renderHeader();
  const q = new URLSearchParams(location.search);
  if (q.get('table')) {
    if (q.get('invite')) app.invites.set(q.get('table'), q.get('invite'));
    history.replaceState(null, '', location.pathname + '#/table/' + q.get('table'));
  }
  try {
    app.me = await api('GET', '/api/session');
  } catch {
    app.me = null;
  }
  try { app.gamesInfo = await api('GET', '/api/games'); } catch { app.gamesInfo = null; }
  if (app.me) connect();
  renderHeader();
  window.addEventListener('hashchange', route);
  route();
  document.addEventListener('keydown', onKey);
}

function connect() {
  if (app.conn) return;
  app.conn = new Conn(onMessage, (up) => {
    app.online = up;
    renderConn();
  });
  app.conn.open();
}

function send(msg, cb) { if (app.conn) app.conn.send(msg, cb); }

// ---------- header ----------

function renderHeader() {
  const header = document.getElementById('topbar');
  const skip = document.getElementById('skip');
  if (skip) skip.textContent = t('app.skip');
  document.title = t('app.title');
  const langSel = h('select', {
    id: 'lang', 'data-testid': 'lang-select', 'aria-label': t('header.language'),
    onchange: (e) => setLang(e.target.value, true),
  }, LANGS.map((l) => h('option', { value: l, selected: l === currentLang() }, LANG_NAMES[l])));
  const brand = h('a', { href: '#/', class: 'brand', 'data-testid': 'home' }, cardSVG('7P'), t('app.title'));
  replace(header,
    brand,
    h('span', { class: 'spacer' }),
    app.me ? h('span', { 'data-testid': 'me-name' }, t('header.hello', { name: app.me.name })) : null,
    h('span', { id: 'conn', class: 'conn', role: 'status' }),
    h('button', {
      type: 'button', 'data-testid': 'sound-toggle', 'aria-pressed': String(app.sound),
      onclick: () => { app.sound = !app.sound; localStorage.setItem('cardroom.sound', app.sound ? 'on' : 'off'); renderHeader(); },
    }, app.sound ? t('header.sound_on') : t('header.sound_off')),
    h('label', { for: 'lang' }, t('header.language')),
    langSel,
  );
  renderConn();
}

function renderConn() {
  const c = document.getElementById('conn');
  if (!c) return;
  if (!app.me) { c.hidden = true; return; }
  c.hidden = false;
  c.className = 'conn' + (app.online ? '' : ' down');
  c.textContent = app.online ? t('conn.online') : t('conn.reconnecting');
  c.dataset.testid = app.online ? 'conn-online' : 'conn-down';
}

// ---------- messages ----------

function onMessage(msg) {
  switch (msg.type) {
    case 'welcome':
      app.me = { ...(app.me || {}), player: msg.player, name: msg.name };
      // Re-subscribe after a reconnection: the lobby, the table on screen.
      if (app.lobbySub) send({ type: 'lobby', subscribe: true });
      if (app.route && (app.route.name === 'table')) watch(app.route.id);
      break;
    case 'lobby':
      app.lobby = msg.tables || [];
      if (app.route && app.route.name === 'lobby') renderLobbyTables();
      break;
    case 'state': {
      const tb = tableData(msg.table);
      const prev = tb.states.get(msg.seat);
      if (prev && prev.seq > msg.seq) break;
      const wasMyTurn = prev && (prev.legal || []).length > 0;
      tb.states.set(msg.seat, msg);
      tb.received = Date.now();
      if (tb.ui.pending && msg.seq > tb.ui.pending.seq) tb.ui.pending = null;
      if (msg.seat >= 0) tb.states.delete(-1);
      if (app.route && app.route.name === 'table' && app.route.id === msg.table) {
        renderTable();
        if (!wasMyTurn && (msg.legal || []).length > 0) beep();
      }
      break;
    }
    case 'hint': {
      const tb = tableData(msg.table);
      tb.ui.hint = msg;
      if (app.route && app.route.name === 'table') renderTable();
      break;
    }
    case 'error':
      showError(msg);
      if ((msg.code === 'no_table' || msg.code === 'forbidden') && app.route && app.route.name === 'table' && app.route.id === msg.table) {
        const tb = tableData(msg.table);
        if (!mainState(tb)) { tb.ui.missing = true; renderTable(); }
      }
      break;
  }
}

function tableData(id) {
  if (!app.tables.has(id)) app.tables.set(id, { states: new Map(), ui: {}, received: 0 });
  return app.tables.get(id);
}

export function showError(e) {
  const code = e.code || 'internal';
  app.errors.push({ code, message: e.message || '', at: Date.now() });
  if (app.errors.length > 50) app.errors.shift();
  const key = 'error.' + code;
  let text = t(key);
  if (text === key) text = t('error.unknown');
  if ((code === 'bad_options' || code === 'bad_request') && e.message) text += ' (' + e.message + ')';
  toast(text, true, e.message);
}

function toast(text, isError, detail) {
  const box = document.getElementById('toast');
  const m = h('div', { class: 'msg' + (isError ? ' error' : ''), role: isError ? 'alert' : 'status', 'data-testid': isError ? 'error-toast' : 'toast', title: detail || '' }, text);
  box.appendChild(m);
  setTimeout(() => m.remove(), isError ? 6000 : 3500);
}

let audioCtx = null;
function beep() {
  if (!app.sound) return;
  try {
    audioCtx = audioCtx || new AudioContext();
    const o = audioCtx.createOscillator();
    const g = audioCtx.createGain();
    o.frequency.value = 660;
    g.gain.value = 0.04;
    g.gain.exponentialRampToValueAtTime(0.0001, audioCtx.currentTime + 0.18);
    o.connect(g).connect(audioCtx.destination);
    o.start();
    o.stop(audioCtx.currentTime + 0.2);
  } catch { /* no audio */ }
}

// ---------- routing ----------

function route() {
  const hash = location.hash.replace(/^#\/?/, '');
  const parts = hash.split('/').filter(Boolean);
  const old = app.route;
  if (parts[0] === 'table' && parts[1]) app.route = { name: 'table', id: parts[1] };
  else if (parts[0] === 'replay' && parts[1]) app.route = { name: 'replay', id: parts[1] };
  else app.route = { name: 'lobby' };
  if (old && old.name === 'table' && (app.route.name !== 'table' || app.route.id !== old.id)) {
    send({ type: 'unwatch', table: old.id });
  }
  if (app.route.name === 'lobby') {
    if (app.me && !app.lobbySub) { app.lobbySub = true; send({ type: 'lobby', subscribe: true }); }
  } else if (app.lobbySub) {
    app.lobbySub = false;
    send({ type: 'lobby', subscribe: false });
  }
  if (app.route.name === 'table' && app.me) watch(app.route.id);
  if (app.route.name === 'replay') app.replay = { id: app.route.id, step: null, seat: -1, data: null };
  render();
  const main = document.getElementById('app');
  main.focus({ preventScroll: true });
}

function watch(id) {
  const msg = { type: 'watch', table: id };
  const inv = app.invites.get(id);
  if (inv) msg.invite = inv;
  send(msg);
  // The summary tells the owner's id (bots can be added) and the invite code.
  api('GET', `/api/tables/${encodeURIComponent(id)}` + (inv ? `?invite=${encodeURIComponent(inv)}` : '')).then((sum) => {
    const tb = tableData(id);
    tb.summary = sum;
    if (sum.invite) app.invites.set(id, sum.invite);
    if (app.route && app.route.name === 'table' && app.route.id === id && mainState(tb) && mainState(tb).status === 'open') renderTable();
  }).catch(() => {});
}

function go(hash) { location.hash = hash; }

function render() {
  if (!app.route) return;
  if (!app.me) return renderLogin();
  if (app.route.name === 'table') return renderTable();
  if (app.route.name === 'replay') return renderReplay();
  return renderLobby();
}

// ---------- login ----------

function renderLogin() {
  const main = document.getElementById('app');
  const input = h('input', {
    id: 'name', 'data-testid': 'name-input', maxlength: 24, required: true, autocomplete: 'nickname',
    value: localStorage.getItem('cardroom.name') || '',
  });
  const form = h('form', {
    class: 'panel', style: 'max-width:420px;margin:2rem auto',
    onsubmit: async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      try {
        app.me = await api('POST', '/api/session', { name });
        localStorage.setItem('cardroom.name', name);
        connect();
        renderHeader();
        route();
      } catch (err) { showError(err); }
    },
  },
  h('h1', {}, t('login.title')),
  h('p', {}, t('login.intro')),
  h('label', { class: 'field', for: 'name' }, h('span', {}, t('login.name')), input),
  h('button', { class: 'btn', type: 'submit', 'data-testid': 'name-submit' }, t('login.enter')));
  replace(main, form);
  input.focus();
}

// ---------- lobby ----------

const create = { game: 'papayoo', opts: {}, seatKinds: {}, private: false, clock: 0, level: 'hard', sit: true };

function optionSpecs(game) {
  const g = app.gamesInfo && (app.gamesInfo.games || []).find((x) => x.name === game);
  return (g && g.options) || [];
}
function levels() {
  return (app.gamesInfo && app.gamesInfo.levels) || ['random', 'easy', 'medium', 'hard'];
}
function playersSpec(game) {
  return optionSpecs(game).find((o) => o.name === 'players') || { min: 2, max: 8, default: '4' };
}
function numPlayers() {
  const spec = playersSpec(create.game);
  return parseInt(create.opts.players || spec.default || spec.min || 4, 10);
}

function renderLobby() {
  const main = document.getElementById('app');
  const quickLevel = h('select', { id: 'quick-level', 'data-testid': 'quick-level', 'aria-label': t('lobby.bot_level') },
    levels().map((l) => h('option', { value: l, selected: l === create.level }, t('level.' + l))));
  quickLevel.onchange = () => { create.level = quickLevel.value; };
  const quick = h('section', { class: 'panel', 'aria-labelledby': 'quick-h' },
    h('h2', { id: 'quick-h' }, t('lobby.quick')),
    h('p', {}, t('lobby.quick_intro')),
    h('div', { class: 'quick' }, GAME_NAMES.map((g) => h('button', {
      class: 'btn', type: 'button', 'data-testid': 'quick-' + g,
      onclick: async () => {
        try {
          const tb = await api('POST', '/api/quickplay', { game: g, options: {}, level: quickLevel.value });
          go('#/table/' + tb.id);
        } catch (err) { showError(err); }
      },
    }, cardSVG(g === 'papayoo' ? '20P' : g === 'rum500' ? 'AS' : '7C'), t('game.' + g)))),
    h('label', { class: 'field', for: 'quick-level', style: 'margin-top:.6rem' }, h('span', {}, t('lobby.bot_level')), quickLevel));

  const invite = h('input', { id: 'invite-link', 'data-testid': 'invite-input', placeholder: t('lobby.invite_placeholder') });
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
      h('section', { class: 'panel', 'aria-labelledby': 'tables-h' }, h('h2', { id: 'tables-h' }, t('lobby.tables')), h('div', { id: 'lobby-tables', 'aria-live': 'polite' })),
      h('section', { class: 'panel' }, h('h2', {}, t('lobby.history')), h('div', { id: 'history' }))),
  ));
  renderLobbyTables();
  loadHistory();
}

function renderCreate() {
  const specs = optionSpecs(create.game);
  const n = numPlayers();
  const form = h('form', {
    class: 'panel', 'aria-labelledby': 'create-h', 'data-testid': 'create-form',
    onsubmit: (e) => { e.preventDefault(); doCreate(); },
  });
  const gamePick = h('div', { class: 'game-pick', role: 'group', 'aria-label': t('lobby.game') },
    GAME_NAMES.map((g) => h('button', {
      type: 'button', 'aria-pressed': String(create.game === g), 'data-testid': 'create-game-' + g,
      onclick: () => { create.game = g; create.opts = {}; create.seatKinds = {}; renderLobby(); },
    }, t('game.' + g))));
  const fields = [];
  for (const o of specs) {
    if (o.name === 'first_dealer' || o.name === 'tie_break') continue;
    const id = 'opt-' + o.name;
    const label = t('opt.' + create.game + '.' + o.name) !== 'opt.' + create.game + '.' + o.name ? t('opt.' + create.game + '.' + o.name) : (t('opt.' + o.name) !== 'opt.' + o.name ? t('opt.' + o.name) : o.name);
    const cur = create.opts[o.name] !== undefined ? create.opts[o.name] : o.default;
    let input;
    if (o.kind === 'bool') {
      input = h('input', { type: 'checkbox', id, 'data-testid': id, checked: cur === 'true', onchange: (e) => { create.opts[o.name] = e.target.checked ? 'true' : 'false'; } });
      fields.push(h('label', { class: 'check', for: id }, input, label));
      continue;
    }
    if (o.kind === 'enum') {
      input = h('select', { id, 'data-testid': id, onchange: (e) => { create.opts[o.name] = e.target.value; } },
        (o.values || []).map((v) => h('option', { value: v, selected: v === cur }, t('val.' + v) !== 'val.' + v ? t('val.' + v) : v)));
    } else if (o.name === 'players') {
      const vals = [];
      for (let i = o.min || 2; i <= (o.max || 8); i++) vals.push(i);
      input = h('select', { id, 'data-testid': id, onchange: (e) => { create.opts.players = e.target.value; renderLobby(); } },
        vals.map((v) => h('option', { value: v, selected: String(v) === String(n) }, String(v))));
    } else {
      input = h('input', {
        id, 'data-testid': id, type: 'number', min: o.min || undefined, max: o.max || undefined, value: cur || '', placeholder: cur ? undefined : t('lobby.default'),
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
    fields,
    h('fieldset', { class: 'seats-cfg' }, h('legend', {}, t('lobby.seats')),
      h('label', { class: 'check', for: 'sit' }, h('input', { type: 'checkbox', id: 'sit', 'data-testid': 'create-sit', checked: create.sit, onchange: (e) => { create.sit = e.target.checked; renderLobby(); } }), t('lobby.sit')),
      seats),
    h('label', { class: 'field', for: 'clock' }, h('span', {}, t('lobby.clock')),
      h('select', { id: 'clock', 'data-testid': 'create-clock', onchange: (e) => { create.clock = +e.target.value; } },
        clocks.map((c) => h('option', { value: c, selected: c === create.clock }, c ? t('lobby.clock_s', { s: c / 1000 }) : t('lobby.no_clock'))))),
    h('label', { class: 'check', for: 'private' }, h('input', { type: 'checkbox', id: 'private', 'data-testid': 'create-private', checked: create.private, onchange: (e) => { create.private = e.target.checked; } }), t('lobby.private')),
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
  const options = {};
  for (const [k, v] of Object.entries(create.opts)) if (v !== '' && v !== undefined) options[k] = String(v);
  if (!options.players) options.players = String(n);
  const msg = { type: 'create', game: create.game, options, private: create.private, clock_ms: create.clock, bot_level: create.level, seat: create.sit ? 0 : -1, bots };
  send(msg, (ans) => {
    if (ans.type !== 'created') return;
    const tb = ans.summary; // created: table is the id, summary the table (protocol 2)
    if (tb.invite) app.invites.set(tb.id, tb.invite);
    tableData(tb.id).summary = tb;
    go('#/table/' + tb.id);
  });
}

function renderLobbyTables() {
  const box = document.getElementById('lobby-tables');
  if (!box) return;
  const list = app.lobby || [];
  if (!list.length) { replace(box, h('p', { class: 'empty', 'data-testid': 'no-tables' }, t('lobby.no_tables'))); return; }
  replace(box, h('table', { class: 'list', 'data-testid': 'lobby-tables' },
    h('thead', {}, h('tr', {}, h('th', {}, t('lobby.game')), h('th', {}, t('lobby.players')), h('th', {}, t('lobby.status')), h('th', {}, h('span', { class: 'sr-only' }, t('lobby.actions'))))),
    h('tbody', {}, list.map((tb) => h('tr', { 'data-testid': 'lobby-row', 'data-table': tb.id },
      h('td', {}, t('game.' + tb.game), h('div', { class: 'meta' }, ['rounds', 'target', 'hands'].filter((k) => tb.options && tb.options[k]).map((k) => `${t('opt.' + k)}: ${tb.options[k]}`).join(' · '), tb.clock_ms ? ` · ${t('lobby.clock')}: ${tb.clock_ms / 1000} s` : '')),
      h('td', {}, (tb.seats || []).map((s) => s.kind === 'empty' ? t('lobby.free_seat') : displayName(s.name)).join(', ')),
      h('td', {}, t('status.' + tb.status)),
      h('td', { class: 'row' },
        tb.status === 'open' && tb.free > 0 ? h('button', { class: 'btn small', type: 'button', 'data-testid': 'join-' + tb.id, onclick: () => joinTable(tb.id, -1) }, t('lobby.join')) : null,
        h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'watch-' + tb.id, onclick: () => go('#/table/' + tb.id) }, t('lobby.watch'))),
    )))));
}

function displayName(n) {
  if (!n) return '';
  if (n.startsWith('bot:')) return t('bot.short', { level: t('level.' + n.slice(4)) });
  return n;
}

async function loadHistory() {
  const box = document.getElementById('history');
  if (!box) return;
  try {
    const h0 = await api('GET', '/api/history');
    const games = (h0.games || []).filter((g) => g.status === 'finished').slice(0, 10);
    if (!games.length) { replace(box, h('p', { class: 'empty' }, t('lobby.no_history'))); return; }
    replace(box, h('ul', {}, games.map((g) => h('li', {},
      t('game.' + g.game), ' — ', g.won ? t('lobby.won') : t('lobby.lost'), ' ',
      h('a', { href: '#/replay/' + g.id, 'data-testid': 'replay-' + g.id }, t('lobby.replay'))))));
  } catch { replace(box, h('p', { class: 'empty' }, t('lobby.no_history'))); }
}

function joinTable(id, seat) {
  const msg = { type: 'join', table: id };
  if (seat >= 0) msg.seat = seat;
  if (app.invites.get(id)) msg.invite = app.invites.get(id);
  send(msg, (ans) => { if (ans.type === 'joined') go('#/table/' + id); });
  if (!(app.route && app.route.name === 'table' && app.route.id === id)) go('#/table/' + id);
}

// ---------- table ----------

// The state on screen: the lowest seat the player holds, else the spectator view.
function mainState(tb) {
  let best = null;
  for (const [seat, st] of tb.states) {
    if (seat < 0) continue;
    if (!best || seat < best.seat) best = st;
  }
  return best || tb.states.get(-1) || null;
}

function ctxFor(st, tb, readonly) {
  return {
    state: st, view: st.view || {}, legal: readonly ? [] : (st.legal || []), seat: st.seat, seats: st.seats || [],
    toAct: st.to_act || [], options: st.options || {}, game: st.game, ui: tb.ui, readonly,
    result: st.result, status: st.status,
    move: (text) => sendMove(st, text),
    rerender: () => (readonly ? renderReplay() : renderTable()),
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

function renderTable() {
  const main = document.getElementById('app');
  const id = app.route.id;
  const tb = tableData(id);
  const st = mainState(tb);
  if (!st) {
    replace(main, h('div', { class: 'panel', 'data-testid': tb.ui.missing ? 'table-missing' : 'table-loading' }, h('p', {}, tb.ui.missing ? t('table.no_table') : t('table.loading')),
      h('a', { href: '#/' }, t('table.back'))));
    return;
  }
  const mod = GAMES[st.game];
  const ctx = ctxFor(st, tb, false);
  let game;
  try {
    game = mod ? mod.render(ctx) : { center: h('pre', {}, JSON.stringify(st.view, null, 1)) };
  } catch (err) {
    console.error(err);
    game = { center: h('pre', { class: 'panel' }, String(err && err.stack || err)) };
  }
  if (st.status === 'open') {
    game.status = t('table.waiting_short');
    game.sub = '';
    game.badges = null;
  }
  const seatsBox = h('div', { class: 'opponents', 'data-testid': 'seats' },
    (st.seats || []).map((s) => renderSeat(ctx, s, mod)));
  const head = h('div', { class: 'table-head' },
    h('h2', {}, t('game.' + st.game), ' ', h('span', { class: 'badge', 'data-testid': 'table-status' }, t('status.' + st.status))),
    h('div', { class: 'row' },
      st.seat < 0 ? h('span', { class: 'badge', 'data-testid': 'spectator-badge' }, t('table.spectator')) : null,
      game.badges || null,
      st.status === 'playing' && st.seat >= 0 ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'hint', onclick: () => send({ type: 'hint', table: id, seat: st.seat }) }, t('table.hint')) : null,
      st.status === 'finished' ? h('a', { class: 'btn small secondary', href: '#/replay/' + id, 'data-testid': 'open-replay' }, t('table.replay')) : null,
      st.seat >= 0 && st.status !== 'finished' ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'leave', onclick: () => { send({ type: 'leave', table: id }); go('#/'); } }, t('table.leave')) : null,
      h('a', { class: 'btn small secondary', href: '#/', 'data-testid': 'back-lobby' }, t('table.back'))));
  const statusLine = h('div', { class: 'status', 'data-testid': 'status', 'aria-live': 'polite' }, game.status || '', game.sub ? h('span', { class: 'sub' }, game.sub) : null);
  const hintBox = ctx.hint ? h('div', { class: 'offer', 'data-testid': 'hint-text', role: 'status' }, t('table.hint_is', { move: describeMove(ctx.hint) })) : null;
  const felt = h('section', { class: 'felt', 'aria-label': t('table.table'), 'data-testid': 'felt', 'data-game': st.game, 'data-seq': st.seq, 'data-table': st.table, 'data-seat': st.seat, 'data-status': st.status },
    head,
    st.status === 'open' ? renderWaiting(ctx, tb) : null,
    seatsBox, game.center, statusLine, hintBox, game.hand || null);
  const side = h('aside', { class: 'side' },
    h('section', { class: 'panel scores', 'aria-labelledby': 'scores-h' }, h('h3', { id: 'scores-h' }, t('table.scores')), mod && mod.scores ? mod.scores(ctx) : null),
    game.log ? h('section', { class: 'panel' }, h('h3', {}, t('table.last_moves')), game.log) : null,
    helpPanel(st.game, tb.ui));
  replace(main, h('div', { class: 'tablepage' }, felt, side),
    st.status === 'finished' && st.result && !tb.ui.closedFinal ? finalDialog(ctx, tb) : null);
  startClock();
}

function renderSeat(ctx, s, mod) {
  const turn = (ctx.toAct || []).includes(s.seat);
  const info = mod && mod.seatInfo ? mod.seatInfo(ctx, s.seat) : null;
  const clock = ctx.state.clock && ctx.state.clock.remaining && ctx.state.clock.remaining[String(s.seat)] !== undefined && turn
    ? h('span', { class: 'badge', 'data-clock': ctx.state.clock.remaining[String(s.seat)], 'data-testid': 'clock-' + s.seat }, '') : null;
  return h('div', {
    class: 'seat' + (turn ? ' turn' : '') + (s.seat === ctx.seat ? ' me' : ''), 'data-testid': 'seat-' + s.seat,
    'aria-label': seatName(ctx, s.seat) + (turn ? ' — ' + t('table.to_act') : ''),
  },
  h('div', { class: 'name' }, s.kind === 'empty' ? t('table.empty_seat') : seatName(ctx, s.seat),
    s.away ? h('span', { class: 'badge' }, t('table.away')) : null,
    s.kind === 'human' && !s.connected ? h('span', { class: 'badge' }, t('table.offline')) : null),
  info ? h('div', { class: 'meta' }, info) : null,
  backs(ctx, s.seat),
  turn ? h('div', { class: 'meta' }, t('table.to_act'), ' ', clock) : null);
}

function backs(ctx, seat) {
  const sizes = (ctx.view && ctx.view.hand_sizes) || [];
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
  const link = inviteCode ? `${location.origin}/?table=${st.table}&invite=${inviteCode}` : `${location.origin}/?table=${st.table}`;
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
  const rows = [];
  for (let s = 0; s < n; s++) rows.push(s);
  rows.sort((a, b) => (r.higher_wins ? r.totals[b] - r.totals[a] : r.totals[a] - r.totals[b]));
  const mod = GAMES[ctx.game];
  const close = () => { tb.ui.closedFinal = true; renderTable(); };
  const dlg = h('div', { class: 'overlay', onkeydown: (e) => { if (e.key === 'Escape') close(); } },
    h('div', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'final-h', 'data-testid': 'final-scores' },
      h('h2', { id: 'final-h' }, t('final.title')),
      h('p', { class: 'winner-line', 'data-testid': 'final-winners' }, winners.length > 1
        ? t('final.winners', { names: winners.map((w) => seatName(ctx, w)).join(', ') })
        : t('final.winner', { name: seatName(ctx, winners[0]) })),
      h('table', { class: 'list' },
        h('thead', {}, h('tr', {}, h('th', {}, t('final.place')), h('th', {}, t('final.player')), h('th', {}, t('final.total')))),
        h('tbody', {}, rows.map((s, i) => h('tr', { 'data-testid': 'final-row', 'data-seat': s },
          h('td', {}, String(i + 1)), h('td', {}, seatName(ctx, s), winners.includes(s) ? h('span', { class: 'badge gold', style: 'margin-left:.4rem' }, t('final.winner_badge')) : null),
          h('td', { 'data-testid': 'final-total-' + s }, String(r.totals[s])))))),
      mod && mod.finalExtra ? mod.finalExtra(ctx) : null,
      h('div', { class: 'controls' },
        h('a', { class: 'btn', href: '#/replay/' + ctx.state.table, 'data-testid': 'final-replay' }, t('table.replay')),
        h('button', { class: 'btn secondary', type: 'button', 'data-testid': 'final-close', onclick: close }, t('final.close')),
        h('a', { class: 'btn secondary', href: '#/', 'data-testid': 'final-lobby' }, t('table.back')))));
  setTimeout(() => { const b = dlg.querySelector('[data-testid=final-replay]'); if (b && !dlg.contains(document.activeElement)) b.focus(); }, 0);
  return dlg;
}

function helpPanel(game, ui) {
  const tab = ui.helpTab || 'rules';
  const mk = (name) => h('button', {
    type: 'button', role: 'tab', 'aria-selected': String(tab === name), id: 'tab-' + name, 'data-testid': 'tab-' + name,
    'aria-controls': 'help-body', onclick: () => { ui.helpTab = name; app.route.name === 'replay' ? renderReplay() : renderTable(); },
  }, t('help.' + name));
  return h('section', { class: 'panel', 'aria-label': t('help.title') },
    h('div', { class: 'tabs', role: 'tablist' }, mk('rules'), mk('tips')),
    h('div', { id: 'help-body', role: 'tabpanel', 'aria-labelledby': 'tab-' + tab, 'data-testid': 'help-' + tab }, renderRich(t(tab + '.' + game))),
    h('p', { class: 'meta keys' }, t('help.keys')));
}

function startClock() {
  if (app.clockTimer) return;
  app.clockTimer = setInterval(() => {
    const tb = app.route && app.route.name === 'table' ? app.tables.get(app.route.id) : null;
    for (const b of document.querySelectorAll('[data-clock]')) {
      const left = Math.max(0, +b.dataset.clock - (Date.now() - (tb ? tb.received : Date.now())));
      b.textContent = Math.ceil(left / 1000) + ' s';
    }
  }, 500);
}

// ---------- replay ----------

async function loadReplay(step) {
  const r = app.replay;
  const q = new URLSearchParams();
  if (step !== null && step !== undefined) q.set('step', step);
  q.set('seat', r.seat);
  try {
    r.data = await api('GET', `/api/records/${r.id}/replay?${q}`);
    r.step = r.data.step;
    r.error = null;
  } catch (err) {
    r.error = err;
    showError(err);
  }
  renderReplay();
}

function renderReplay() {
  const main = document.getElementById('app');
  const r = app.replay;
  if (!r.data && !r.error) { replace(main, h('div', { class: 'panel' }, t('table.loading'))); loadReplay(0); return; }
  if (!r.data) { replace(main, h('div', { class: 'panel' }, h('p', {}, t('replay.unavailable')), h('a', { href: '#/' }, t('table.back')))); return; }
  const d = r.data;
  const tb = tableData(d.table);
  const n = (d.view && (pick(d.view, 'players', 'seats') || (d.view.hand_sizes || d.view.totals || []).length)) || 0;
  const seats = [];
  const summary = tb.summary;
  const names = r.names || [];
  for (let s = 0; s < (typeof n === 'number' ? n : names.length); s++) seats.push({ seat: s, name: names[s] || (summary && summary.seats && summary.seats[s] && summary.seats[s].name) || '', kind: 'replay', connected: true });
  const v0 = d.view || {};
  const toAct = Array.isArray(v0.to_act) ? v0.to_act : (v0.to_act >= 0 ? [v0.to_act] : (v0.turn >= 0 && !d.result ? [v0.turn] : []));
  const st = { table: d.table, game: d.game, seat: d.seat, view: d.view, legal: [], to_act: toAct, seats, status: d.result ? 'finished' : 'playing', result: d.result, options: {} };
  const mod = GAMES[d.game];
  const ctx = ctxFor(st, tb, true);
  let game;
  try { game = mod.render(ctx); } catch (err) { game = { center: h('pre', {}, String(err)) }; }
  const stepTo = (s) => loadReplay(Math.max(0, Math.min(d.steps, s)));
  const seatSel = h('select', { 'aria-label': t('replay.seat'), 'data-testid': 'replay-seat', onchange: (e) => { r.seat = +e.target.value; loadReplay(r.step); } },
    h('option', { value: -1, selected: r.seat === -1 }, t('replay.spectator')),
    seats.map((s) => h('option', { value: s.seat, selected: r.seat === s.seat }, t('seat.n', { n: s.seat + 1 }))));
  const entry = d.entry ? (d.entry.move ? `${seatName(ctx, d.entry.seat)}: ${describeMove(d.entry.move)}` : t('replay.chance', { what: d.entry.chance })) : t('replay.start');
  const bar = h('div', { class: 'controls', role: 'toolbar', 'aria-label': t('replay.controls') },
    h('button', { class: 'btn small', type: 'button', 'data-testid': 'replay-first', 'data-key': 'rf', onclick: () => stepTo(0) }, '« ', t('replay.first')),
    h('button', { class: 'btn small', type: 'button', 'data-testid': 'replay-prev', 'data-key': 'rp', onclick: () => stepTo(d.step - 1) }, '◀ ', t('replay.prev')),
    h('span', { class: 'badge', 'data-testid': 'replay-step' }, t('replay.step', { step: d.step, steps: d.steps })),
    h('button', { class: 'btn small', type: 'button', 'data-testid': 'replay-next', 'data-key': 'rn', onclick: () => stepTo(d.step + 1) }, t('replay.next'), ' ▶'),
    h('button', { class: 'btn small', type: 'button', 'data-testid': 'replay-last', 'data-key': 'rl', onclick: () => stepTo(d.steps) }, t('replay.last'), ' »'),
    seatSel);
  const felt = h('section', { class: 'felt', 'aria-label': t('replay.title'), 'data-testid': 'replay', 'data-game': d.game },
    h('div', { class: 'table-head' }, h('h2', {}, t('replay.title'), ' — ', t('game.' + d.game)), h('a', { class: 'btn small secondary', href: '#/' }, t('table.back'))),
    bar,
    h('div', { class: 'status', 'data-testid': 'replay-entry' }, entry),
    h('div', { class: 'opponents' }, seats.map((s) => renderSeat(ctx, s, mod))),
    game.center, h('div', { class: 'status' }, game.status || ''), game.hand || null);
  const side = h('aside', { class: 'side' },
    h('section', { class: 'panel scores' }, h('h3', {}, t('table.scores')), mod.scores ? mod.scores(ctx) : null),
    helpPanel(d.game, tb.ui));
  replace(main, h('div', { class: 'tablepage' }, felt, side));
  if (!r.names) {
    r.names = [];
    api('GET', '/api/records/' + r.id).then((txt) => {
      const names = [];
      for (const m of String(txt).matchAll(/^\[Seat(\d+) "([^"]*)"\]/gm)) names[+m[1]] = m[2];
      r.names = names;
      renderReplay();
    }).catch(() => {});
  }
}

// ---------- keyboard ----------

function onKey(e) {
  if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT' || e.target.tagName === 'TEXTAREA')) return;
  if (app.route && app.route.name === 'replay' && app.replay && app.replay.data) {
    if (e.key === 'ArrowRight') { loadReplay(app.replay.data.step + 1); e.preventDefault(); }
    if (e.key === 'ArrowLeft') { loadReplay(Math.max(0, app.replay.data.step - 1)); e.preventDefault(); }
  }
  if (app.route && app.route.name === 'table' && e.key === 'h' && !e.ctrlKey && !e.metaKey && !e.altKey) {
    const b = document.querySelector('[data-testid=hint]');
    if (b) b.click();
  }
}

boot();
