// Table chat and rematch (docs/protocol.md, "Chat" and "Rematch"): the
// panel beside the table, with the players' channel, the spectators'
// channel (which a player can show or hide, and the owner turn off), canned
// phrases and reactions sent as codes and shown in the reader's language,
// mute (this browser only), report, and the rematch control with the
// series score.
//
// Everything a player wrote is put on the page as text nodes (h() children,
// never parsed as HTML), so a line cannot inject markup.
import { h, morph } from './dom.js';
import { t } from './i18n.js';
import { app, send, onRoute, go, toast } from './app.js';
import { accountMark } from './pieces.js';

// PHRASES are the codes of protocol.Phrases; the EMOJI ones are shown as
// their emoji, the others translated (chat.phrase.*).
const PHRASES = ['gg', 'wp', 'thanks', 'oops', 'hello', 'sorry'];
const EMOJI = { emoji_thumbs_up: '👍', emoji_laugh: '😄', emoji_wow: '😮', emoji_sad: '😢', emoji_heart: '❤️', emoji_clap: '👏' };
const MAX_TEXT = 300;   // protocol.MaxChatText
const KEEP = 200;       // lines kept per table in this page
const MAX_MUTED = 200;  // players muted in this browser

// TINY is the style of the per-line buttons (no stylesheet of this
// module's own: styles go through the CSSOM, for the CSP).
const TINY = 'min-height: 0; padding: 0 .4rem; font-size: .75rem; margin-left: .3rem; font-weight: 500';

const chats = new Map(); // table id → {lines, ids, settings, rematch, draft, st, reported}

function chatOf(id) {
  if (!chats.has(id)) chats.set(id, { lines: [], ids: new Set(), settings: null, rematch: null, draft: '', st: null, reported: new Set(), asked: false });
  return chats.get(id);
}

// Muting is this browser's: the muted players' ids in local storage. The
// server is not told (docs/protocol.md, "Chat").
function muted() {
  try {
    const v = JSON.parse(localStorage.getItem('cardroom.muted') || '[]');
    return new Set(Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
  } catch { return new Set(); }
}

function setMuted(player, on) {
  const m = muted();
  if (on) m.add(player); else m.delete(player);
  localStorage.setItem('cardroom.muted', JSON.stringify([...m].slice(-MAX_MUTED)));
}

// hideSpectators is the player's choice, remembered across tables.
function hideSpectators() { return localStorage.getItem('cardroom.chat.hide_spectators') === '1'; }

let hooked = false;

// hookChat routes the chat and rematch messages of the connection to this
// module (called once by the table view, before it watches a table).
export function hookChat() {
  if (hooked || !app.conn) return;
  hooked = true;
  const orig = app.conn.onMessage;
  app.conn.onMessage = (msg) => { chatMessage(msg); orig(msg); };
}

// chatMessage takes one server message; it ignores the types not its own.
export function chatMessage(msg) {
  if (!msg || typeof msg.table !== 'string') return;
  const c = chatOf(msg.table);
  switch (msg.type) {
    case 'chat':
      if (typeof msg.line !== 'number' || c.ids.has(msg.line)) return; // a watch again resends the last lines
      c.ids.add(msg.line);
      c.lines.push(msg);
      c.lines.sort((a, b) => a.line - b.line);
      while (c.lines.length > KEEP) c.ids.delete(c.lines.shift().line);
      break;
    case 'chat_settings':
      c.settings = msg;
      // The server starts every watch with the channel shown: ask again
      // for what this player chose.
      if (msg.show_spectators && hideSpectators() && c.st && c.st.seat >= 0 && !c.asked) {
        c.asked = true;
        send({ type: 'chat_settings', table: msg.table, show_spectators: false });
      }
      break;
    case 'chat_report':
      c.reported.add(msg.line);
      toast(t('chat.reported'), false);
      break;
    case 'rematch':
      c.rematch = msg;
      break;
    default:
      return;
  }
  redraw(msg.table);
}

// redraw patches the panel in place, without redrawing the table.
function redraw(id) {
  const el = document.querySelector('[data-testid=chat-panel]');
  const c = chats.get(id);
  if (!el || el.dataset.table !== id || !c || !c.st) return;
  morph(el, ...content(c.st, c));
  const log = el.querySelector('[data-testid=chat-log]');
  if (log) log.scrollTop = log.scrollHeight;
  const fin = document.querySelector('[data-testid=final-rematch]');
  if (fin && fin.dataset.table === id) morph(fin, rematchBox(c.st, c, 'final-'));
}

// rematchFinal is the rematch control for the final scores dialog (the
// dialog covers the side panel: one click there offers the rematch).
export function rematchFinal(st) {
  if (!st || !st.table || st.seat < 0) return null;
  const c = chatOf(st.table);
  if (!c.st) c.st = st;
  return h('div', { 'data-testid': 'final-rematch', 'data-table': st.table }, rematchBox(st, c, 'final-'));
}

// chatPanel is the panel of table st.table, for the side of the table view.
export function chatPanel(st) {
  if (!st || !st.table) return null;
  const c = chatOf(st.table);
  c.st = st;
  return h('section', { class: 'panel chat', 'aria-labelledby': 'chat-h', 'data-testid': 'chat-panel', 'data-table': st.table, 'data-key': 'chat' },
    ...content(st, c));
}

function content(st, c) {
  const me = st.seat >= 0;
  const channel = me ? 'players' : 'spectators';
  const set = c.settings || { spectator_chat: true, show_spectators: true };
  const owner = !!app.me && ownerOf(st) === app.me.player;
  const mute = muted();
  const shown = c.lines.filter((l) => !mute.has(l.player) && (l.channel === 'players' || !me || set.show_spectators));
  const canWrite = me || set.spectator_chat;
  return [
    rematchBox(st, c),
    h('h3', { id: 'chat-h' }, t('chat.title')),
    h('div', { class: 'chat-log', 'data-testid': 'chat-log', role: 'log', 'aria-live': 'polite', style: 'max-height: 16rem; overflow-y: auto' },
      shown.length ? shown.map((l) => lineEl(l, c)) : h('p', { class: 'sub' }, t('chat.empty'))),
    canWrite ? h('form', {
      class: 'row', 'data-testid': 'chat-form',
      onsubmit: (e) => {
        e.preventDefault();
        const input = e.target.querySelector('input');
        const text = (input.value || '').trim();
        if (!text) return;
        send({ type: 'chat', table: st.table, channel, text });
        input.value = '';
        c.draft = '';
      },
    },
    h('input', { class: 'grow', type: 'text', maxlength: String(MAX_TEXT), 'data-testid': 'chat-input', 'aria-label': me ? t('chat.say_players') : t('chat.say_spectators'),
      placeholder: me ? t('chat.say_players') : t('chat.say_spectators'), value: c.draft, oninput: (e) => { c.draft = e.target.value; } }),
    h('button', { class: 'btn small', type: 'submit', 'data-testid': 'chat-send' }, t('chat.send'))) : h('p', { class: 'sub', 'data-testid': 'chat-off' }, t('chat.spectators_off')),
    canWrite ? h('div', { class: 'row', 'data-testid': 'chat-phrases' },
      [...PHRASES, ...Object.keys(EMOJI)].map((p) => h('button', {
        class: 'btn small secondary', type: 'button', 'data-testid': 'phrase-' + p, title: phraseText(p),
        onclick: () => send({ type: 'chat', table: st.table, channel, phrase: p }),
      }, phraseText(p)))) : null,
    mutedRow(c, mute),
    me ? h('label', { class: 'row' }, h('input', {
      type: 'checkbox', 'data-testid': 'chat-show-spectators', checked: !!set.show_spectators,
      onchange: (e) => {
        localStorage.setItem('cardroom.chat.hide_spectators', e.target.checked ? '0' : '1');
        send({ type: 'chat_settings', table: st.table, show_spectators: e.target.checked });
      },
    }), t('chat.show_spectators')) : null,
    owner ? h('label', { class: 'row' }, h('input', {
      type: 'checkbox', 'data-testid': 'chat-spectator-switch', checked: !!set.spectator_chat,
      onchange: (e) => send({ type: 'chat_settings', table: st.table, spectator_chat: e.target.checked }),
    }), t('chat.spectators_allowed')) : null,
  ];
}

// ownerOf is the table's owner, from its summary (main.js fetches it).
// mutedRow lists the muted players who wrote at this table, each with a
// button to hear them again.
function mutedRow(c, mute) {
  const who = new Map();
  for (const l of c.lines) if (mute.has(l.player)) who.set(l.player, l.name);
  if (!who.size) return null;
  return h('div', { class: 'row sub', 'data-testid': 'chat-muted' }, t('chat.muted_list'),
    [...who].map(([player, name]) => h('button', {
      class: 'btn small secondary', type: 'button', 'data-testid': 'chat-unmute', style: TINY, title: t('chat.unmute'),
      onclick: () => { setMuted(player, false); redraw(c.st.table); },
    }, name, ' ✕')));
}

function ownerOf(st) {
  const tb = app.tables.get(st.table);
  return tb && tb.summary ? tb.summary.owner : null;
}

function phraseText(code) {
  return EMOJI[code] || t('chat.phrase.' + code);
}

// lineEl is one line of the log. A line from a player seated here as an
// account carries the seat's ✓ (accountMark), so a guest with a name like
// an account's cannot pass for it in the chat either.
function lineEl(l, c) {
  const mine = app.me && l.player === app.me.player;
  const who = l.channel === 'spectators' ? t('chat.spectator_name', { name: l.name }) : l.name;
  const seat = ((c.st && c.st.seats) || []).find((s) => s.player === l.player);
  return h('div', { class: 'chat-line', 'data-testid': 'chat-line', 'data-channel': l.channel, 'data-line': String(l.line), 'data-key': 'line-' + l.line },
    h('b', {}, who), accountMark(seat, 'chat-account'), ': ',
    h('span', { 'data-testid': 'chat-text' }, l.phrase ? phraseText(l.phrase) : l.text),
    mine ? null : h('button', {
      class: 'btn small secondary', type: 'button', 'data-testid': 'chat-mute', title: t('chat.mute_help', { name: l.name }), style: TINY,
      onclick: () => { setMuted(l.player, true); toast(t('chat.muted', { name: l.name }), false); redraw(l.table); },
    }, t('chat.mute')),
    mine || c.reported.has(l.line) ? null : h('button', {
      class: 'btn small secondary', type: 'button', 'data-testid': 'chat-report', style: TINY,
      onclick: () => send({ type: 'chat_report', table: l.table, line: l.line }),
    }, t('chat.report')));
}

// rematchBox offers, accepts or declines a rematch at a finished table,
// says who is awaited, opens the new table, and shows the series score.
function rematchBox(st, c, prefix = '') {
  const r = c.rematch;
  const finished = st.status === 'finished';
  if (!finished && !(r && r.series && r.series.games > 0)) return null;
  const names = new Map((st.seats || []).map((s) => [s.seat, s.name || '']));
  const mineAccepted = r && (r.accepted || []).includes(st.seat);
  let body = null;
  if (finished && st.seat >= 0) {
    if (!r || r.state === 'none' || r.state === 'declined') {
      body = h('div', { class: 'row' },
        r && r.state === 'declined' ? h('span', { 'data-testid': prefix + 'rematch-declined' }, t('rematch.declined')) : null,
        h('button', { class: 'btn small', type: 'button', 'data-testid': prefix + 'rematch-offer', onclick: () => send({ type: 'rematch', table: st.table }) }, t('rematch.offer')));
    } else if (r.state === 'offered') {
      body = h('div', {},
        h('p', { 'data-testid': prefix + 'rematch-waiting' }, t('rematch.waiting', { names: (r.waiting || []).map((s) => names.get(s)).join(', ') })),
        mineAccepted ? null : h('div', { class: 'row' },
          h('button', { class: 'btn small', type: 'button', 'data-testid': prefix + 'rematch-accept', onclick: () => send({ type: 'rematch', table: st.table, accept: true }) }, t('rematch.accept')),
          h('button', { class: 'btn small secondary', type: 'button', 'data-testid': prefix + 'rematch-decline', onclick: () => send({ type: 'rematch', table: st.table, accept: false }) }, t('rematch.decline'))));
    } else if (r.state === 'started' && r.new_table) {
      body = h('div', { class: 'row' },
        h('button', { class: 'btn small', type: 'button', 'data-testid': prefix + 'rematch-open', onclick: () => go('#/table/' + r.new_table) }, t('rematch.open')));
      if (onRoute('table', st.table) && !c.opened) {
        c.opened = true;
        go('#/table/' + r.new_table); // every seat is kept: the players go on at once
      }
    }
  }
  const series = r && r.series && r.series.games > 0 ? h('div', { 'data-testid': prefix + 'series' },
    h('p', { class: 'sub' }, t('rematch.series', { n: r.series.games })),
    h('ul', {}, (r.series.wins || []).map((w) => h('li', {}, w.name, ': ', String(w.wins))))) : null;
  if (!body && !series) return null;
  return h('div', { class: 'offer', 'data-testid': prefix + 'rematch' }, h('h3', {}, t('rematch.title')), body, series);
}
