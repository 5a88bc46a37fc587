// The client's state and the services the views share: the connection's
// send, navigation, the tables' data, toasts and error messages.
import { h } from './dom.js';
import { t, has, currentLang } from './i18n.js';

export const app = {
  me: null,          // {player, name}
  conn: null,
  online: false,
  lobby: [],         // table summaries
  lobbySub: false,
  gamesInfo: null,   // /api/games
  tables: new Map(), // id → {states: Map(seat → state), summary, ui}
  route: null,
  invites: new Map(), // table id → invite code
  tournaments: rememberedMap('cardroom.tournaments', 50), // table id → tournament id (a deal opened from its tournament's page), kept across reloads
  sound: localStorage.getItem('cardroom.sound') !== 'off',
  clockTimer: null,
  errors: [],        // the last errors shown (for tests and debugging)
  replay: null,      // the replay on screen: {id, step, seat, data, names}
  nav: { idx: 0, leaving: null }, // main.js, "history": the entry on screen; a table left by Back
};
window.cardroom = app; // for tests and debugging

// rememberedMap is a Map kept in localStorage under key, holding at most
// max entries (the latest set): what a page learnt on one visit (which
// tournament a deal's table belongs to) is still known after a reload.
// Without storage (private mode, quota) it is a plain Map.
function rememberedMap(key, max) {
  const m = new Map();
  try {
    for (const [k, v] of JSON.parse(localStorage.getItem(key) || '[]')) if (typeof k === 'string' && typeof v === 'string') m.set(k, v);
  } catch { /* a corrupt entry is forgotten */ }
  const set = m.set.bind(m);
  m.set = (k, v) => {
    m.delete(k);
    set(k, v);
    while (m.size > max) m.delete(m.keys().next().value);
    try { localStorage.setItem(key, JSON.stringify([...m])); } catch { /* not kept */ }
    return m;
  };
  return m;
}

export function send(msg, cb) { if (app.conn) app.conn.send(msg, cb); }

// go opens a page of the room; going where the page already is adds no
// history entry (a re-render, a second answer).
export function go(hash) {
  const norm = (x) => String(x).replace(/^#?\/?/, '');
  if (norm(location.hash) === norm(hash)) return;
  location.hash = hash;
}

// back returns to the page the player came from when it is a page of the
// room (app.nav.idx > 0: main.js), else opens the lobby.
export function back() {
  if (app.nav.idx > 0) history.back();
  else go('#/');
}

// backLinks are a page's ways out: "Back" to the page the player came from
// (when it was a page of the room) and the lobby.
export function backLinks(cls) {
  return [
    app.nav.idx > 0 ? h('button', { class: cls || 'btn small secondary', type: 'button', 'data-testid': 'nav-back', onclick: back }, t('nav.back')) : null,
    h('a', { class: cls || 'btn small secondary', href: '#/', 'data-testid': 'nav-lobby' }, t('table.back')),
  ];
}

// seatedInGame says whether the player holds a seat at table id in a game
// in progress: leaving it hands the seat to a bot, so it is asked first.
export function seatedInGame(id) {
  const tb = app.tables.get(id);
  const st = tb && mainState(tb);
  return !!st && st.seat >= 0 && st.status === 'playing';
}

export function onRoute(name, id) {
  return !!app.route && app.route.name === name && (id === undefined || app.route.id === id);
}

export function tableData(id) {
  if (!app.tables.has(id)) app.tables.set(id, { states: new Map(), ui: {}, received: 0 });
  return app.tables.get(id);
}

// mainState is the state on screen: the lowest seat the player holds, else
// the spectator view.
export function mainState(tb) {
  let best = null;
  for (const [seat, st] of tb.states) {
    if (seat < 0) continue;
    if (!best || seat < best.seat) best = st;
  }
  return best || tb.states.get(-1) || null;
}

// levels are the bot levels the server offers.
export function levels() {
  return (app.gamesInfo && app.gamesInfo.levels) || ['random', 'easy', 'medium', 'hard'];
}

// optionSpecs are a game's options as the server describes them.
export function optionSpecs(game) {
  const g = app.gamesInfo && (app.gamesInfo.games || []).find((x) => x.name === game);
  return (g && g.options) || [];
}

export function joinTable(id, seat) {
  const msg = { type: 'join', table: id };
  if (seat >= 0) msg.seat = seat;
  if (app.invites.get(id)) msg.invite = app.invites.get(id);
  send(msg, (ans) => { if (ans.type === 'joined') go('#/table/' + id); });
  if (!onRoute('table', id)) go('#/table/' + id);
}

export function showError(e) {
  const code = e.code || 'internal';
  app.errors.push({ code, message: e.message || '', at: Date.now() });
  if (app.errors.length > 50) app.errors.shift();
  const key = 'error.' + code;
  let text = t(key);
  if (text === key) text = t('error.unknown');
  if (code === 'rate_limited' && e.limit && has('limit.' + e.limit.name)) {
    // The limit by name (docs/protocol.md, "Limits"), said in the
    // player's language, with the wait when the server knows it.
    const l = e.limit;
    text = t('limit.' + l.name, { max: l.max, burst: l.burst });
    if (l.retry > 0) text += ' ' + t('limit.retry', { retry: l.retry });
  } else if ((code === 'bad_options' || code === 'bad_request' || (code === 'rate_limited' && currentLang() === 'en')) && e.message) {
    // The server's words say what was wrong (a bad option) or which limit
    // was reached, for a limit this client does not know; they are
    // English, so a limit's are added to the English text only (the
    // title has them).
    text += ' (' + e.message + ')';
  }
  toast(text, true, e.message);
}

// MAX_TOASTS is the most messages shown at once: a burst of refusals
// (chatting past the limit) shows the same message once, counted, not a
// column of them over the table.
const MAX_TOASTS = 3;

export function toast(text, isError, detail) {
  const box = document.getElementById('toast');
  const life = isError ? 6000 : 3500;
  const same = [...box.children].find((c) => c.dataset.text === text);
  if (same) {
    const n = (+same.dataset.n || 1) + 1;
    same.dataset.n = n;
    same.textContent = text + ' (×' + n + ')';
    clearTimeout(same.__timer);
    same.__timer = setTimeout(() => same.remove(), life);
    return;
  }
  const m = h('div', { class: 'msg' + (isError ? ' error' : ''), role: isError ? 'alert' : 'status', 'data-testid': isError ? 'error-toast' : 'toast', title: detail || '' }, text);
  m.dataset.text = text;
  box.appendChild(m);
  while (box.children.length > MAX_TOASTS) box.firstChild.remove();
  m.__timer = setTimeout(() => m.remove(), life);
}

// announce tells screen readers something that has no place of its own
// on the page (another player's move, a clock running low), through one
// polite live region; the text is set anew so a repeat is read again.
export function announce(text) {
  const el = document.getElementById('announce');
  if (!el || !text) return;
  el.textContent = '';
  setTimeout(() => { el.textContent = text; }, 30);
}
