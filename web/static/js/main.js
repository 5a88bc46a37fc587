// Cardroom's browser client, the shell: boot, routing, the connection and
// its messages, the header. The views are in views/, the games in games/
// (registered with games.js), the shared state and toasts in app.js.
import './games/index.js'; // registers every game before anything is drawn
import { h, replace } from './dom.js';
import { t, setLang, detectLang, currentLang, LANGS, LANG_NAMES, onLangChange } from './i18n.js';
import { Conn, api } from './net.js';
import { cardSVG } from './cards.js';
import { app, send, onRoute, tableData, mainState, showError, toast, seatedInGame } from './app.js';
import { onKey } from './keys.js';
import { tone } from './sound.js';
import { renderLogin } from './views/login.js';
import { renderAccount, startAccount, sessionEnded } from './views/account.js';
import { renderLobby, renderLobbyTables } from './views/lobby.js';
import { renderTable, tableChanged } from './views/table.js';
import { renderReplay, startReplay } from './views/replay.js';
import { renderLeaderboard, startLeaderboard } from './views/leaderboard.js';
import { renderProfile, startProfile } from './views/profile.js';
import { renderTournament, startTournament } from './views/tournament.js';

// ---------- boot ----------

async function boot() {
  await setLang(detectLang(), false);
  onLangChange(() => { renderHeader(); render(); });
  document.addEventListener('cardroom:me', renderHeader); // views/account.js: the name was claimed
  renderHeader();
  const q = new URLSearchParams(location.search);
  if (q.get('table')) {
    if (q.get('invite')) app.invites.set(q.get('table'), q.get('invite'));
    history.replaceState(history.state, '', location.pathname + '#/table/' + q.get('table'));
  }
  startNav();
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
    // The name opens the player's own profile (views/profile.js).
    app.me ? h(app.me.player ? 'a' : 'span', { 'data-testid': 'me-name', href: app.me.player ? '#/players/' + encodeURIComponent(app.me.player) : null, style: 'color:inherit' }, t('header.hello', { name: app.me.name })) : null,
    app.me ? h('a', { href: '#/account', 'data-testid': 'account-link', style: 'color:inherit' }, t('account.link')) : null,
    app.me ? h('a', { href: '#/ratings', 'data-testid': 'ratings-link', style: 'color:inherit' }, t('ratings.link')) : null,
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

// PROTOCOL_VERSION is the protocol this client speaks (protocol.Version).
const PROTOCOL_VERSION = 2;

function onMessage(msg) {
  switch (msg.type) {
    case 'welcome':
      // A page loaded before the server was upgraded speaks an older
      // protocol (docs/protocol.md, "Versioning"): ask for a reload.
      if (msg.version !== PROTOCOL_VERSION) toast(t('conn.reload'), true);
      app.me = { ...(app.me || {}), player: msg.player, name: msg.name };
      app.publicURL = msg.public_url || ''; // -public-url: invite links use it (views/table.js)
      // Re-subscribe after a reconnection: the lobby, the table on screen.
      if (app.lobbySub) send({ type: 'lobby', subscribe: true });
      if (onRoute('table')) watch(app.route.id);
      break;
    case 'lobby':
      app.lobby = msg.tables || [];
      if (onRoute('lobby')) renderLobbyTables();
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
      if (onRoute('table', msg.table)) {
        tableChanged(); // drawn at most once an animation frame
        if (!wasMyTurn && (msg.legal || []).length > 0) beep();
      }
      break;
    }
    case 'hint': {
      const tb = tableData(msg.table);
      tb.ui.hint = msg;
      if (onRoute('table')) tableChanged();
      break;
    }
    case 'error': {
      if (sessionEnded(msg)) break; // views/account.js: this session was revoked elsewhere
      // A table that cannot be watched: its page says why (a private table
      // without its invite: that page's one message, no toast besides).
      const missing = (msg.code === 'no_table' || msg.code === 'forbidden') && onRoute('table', msg.table) && !mainState(tableData(msg.table));
      if (!missing || msg.code !== 'forbidden') showError(msg);
      if (missing) { tableData(msg.table).ui.missing = msg.code; renderTable(); }
      break;
    }
  }
}

function beep() {
  if (app.sound) tone(660, 0.18, 0.04);
}

// ---------- routing ----------

// parseRoute reads the page's address: #/table/<id>, #/replay/<id>, …
function parseRoute(h) {
  const parts = h.replace(/^#\/?/, '').split('/').filter(Boolean);
  if (parts[0] === 'table' && parts[1]) return { name: 'table', id: parts[1] };
  if (parts[0] === 'replay' && parts[1]) return { name: 'replay', id: parts[1] };
  if (parts[0] === 'account') return { name: 'account' };
  if (parts[0] === 'ratings') return { name: 'ratings', id: parts[1] || '', offset: parts[2] || '0' };
  if (parts[0] === 'players' && parts[1]) return { name: 'players', id: decodePart(parts[1]), offset: parts[2] || '0' };
  if (parts[0] === 'tournament' && parts[1]) return { name: 'tournament', id: parts[1] };
  return { name: 'lobby' };
}

// ---------- history: Back and Forward ----------
//
// Every entry of the session history this page made carries its place,
// {idx}: an entry without one is a new page (a link, go()), one with one
// is Back or Forward (a traversal). app.nav.idx is the entry on screen; 0
// is the first page of the room in this tab, so back() knows whether the
// player came from another page of the room.

function startNav() {
  const s = history.state;
  app.nav.idx = s && Number.isInteger(s.idx) ? s.idx : 0;
  // The room's first page is "#/": the brand link to it is then the same
  // entry, not a second lobby.
  const url = location.hash ? location.href : location.pathname + location.search + '#/';
  history.replaceState({ ...(s || {}), idx: app.nav.idx }, '', url);
}

// navigated reads the entry now on screen: true for Back or Forward.
function navigated() {
  const s = history.state;
  if (s && Number.isInteger(s.idx)) {
    app.nav.idx = s.idx;
    return true;
  }
  app.nav.idx += 1;
  history.replaceState({ ...(s || {}), idx: app.nav.idx }, '', location.href);
  return false;
}

// holdSeat keeps the player at a table they hold a seat at, in a game in
// progress, when Back or Forward would leave it: the table's entry comes
// back (the address stays the table's) and the table asks what its Leave
// button asks. Leaving from there goes back (table.js), allowed once by
// app.nav.leaving.
function holdSeat(old, next) {
  if (!old || old.name !== 'table' || (next.name === 'table' && next.id === old.id)) return false;
  if (app.nav.leaving === old.id) { app.nav.leaving = null; return false; }
  if (!seatedInGame(old.id)) return false;
  app.nav.idx += 1;
  history.pushState({ idx: app.nav.idx }, '', '#/table/' + old.id);
  tableData(old.id).ui.confirmLeave = 'back';
  renderTable();
  // The question is where the player looks: in view, its Cancel focused.
  const box = document.querySelector('[data-testid=leave-confirm]');
  if (box) {
    box.scrollIntoView({ block: 'center' });
    const stay = box.querySelector('[data-testid=leave-no]');
    if (stay) stay.focus({ preventScroll: true });
  }
  return true;
}

function route() {
  const old = app.route;
  const next = parseRoute(location.hash);
  if (navigated() && holdSeat(old, next)) return;
  app.route = next;
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
  if (app.route.name === 'replay') startReplay(app.route.id);
  if (app.route.name === 'account') startAccount();
  if (app.route.name === 'ratings') startLeaderboard(app.route.id, app.route.offset);
  if (app.route.name === 'players') startProfile(app.route.id, app.route.offset);
  if (app.route.name === 'tournament') startTournament(app.route.id);
  render();
  // Screen readers start at the new page; a view that focused a field of
  // its own (the welcome page's name) keeps it.
  const main = document.getElementById('app');
  if (!main.contains(document.activeElement) || document.activeElement === main) main.focus({ preventScroll: true });
}

// decodePart reads an encoded part of the route (a player id such as
// bot:medium); a malformed one is taken as it is.
function decodePart(p) {
  try { return decodeURIComponent(p); } catch { return p; }
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
    if (onRoute('table', id) && mainState(tb) && mainState(tb).status === 'open') renderTable();
  }).catch(() => {});
}

// entered: a session now exists (after the login form).
function entered() {
  connect();
  renderHeader();
  route();
}

function render() {
  if (!app.route) return;
  if (!app.me) return renderLogin(entered);
  if (app.route.name === 'table') return renderTable();
  if (app.route.name === 'replay') return renderReplay();
  if (app.route.name === 'account') return renderAccount();
  if (app.route.name === 'ratings') return renderLeaderboard();
  if (app.route.name === 'players') return renderProfile();
  if (app.route.name === 'tournament') return renderTournament();
  return renderLobby();
}

boot();
