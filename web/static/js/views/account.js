// The account view (#/account): a guest claims their name with a password
// (keeping their player id, so their games stay theirs); an account
// changes its password, lists its sessions, revokes one or logs out
// everywhere, and can become a bot account with API tokens for a program
// (botPanel). docs/accounts.md has the design.
import { h, replace } from '../dom.js';
import { t, currentLang } from '../i18n.js';
import { api } from '../net.js';
import { app, showError, toast, onRoute } from '../app.js';

// view is what the server said last: the account (null for a guest) and
// the sessions; loading while the first answers are on their way.
const view = { loading: false, account: undefined, sessions: [], bot: null, freshToken: null };

function when(iso) {
  try { return new Intl.DateTimeFormat(currentLang(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)); } catch { return iso; }
}

// load asks the server for the account and the sessions, then draws.
async function load() {
  view.loading = true;
  try {
    view.account = await api('GET', '/api/account');
  } catch (err) {
    if (err.code === 'no_account') view.account = null;
    else { view.account = undefined; showError(err); }
  }
  try {
    view.sessions = (await api('GET', '/api/sessions')).sessions || [];
  } catch (err) { view.sessions = []; showError(err); }
  view.bot = null;
  if (view.account) {
    try { view.bot = await api('GET', '/api/account/bot'); } catch (err) { if (err.code !== 'unavailable') showError(err); }
  }
  view.loading = false;
  if (onRoute('account')) draw();
}

// signedOut ends the page's identity after this session was revoked:
// a reload starts again at the login view.
function signedOut() {
  if (app.conn) app.conn.close();
  app.me = null;
  location.hash = '#/';
  location.reload();
}

// renderAccount draws the view, loading it the first time.
export function renderAccount() {
  if (view.account === undefined && !view.loading) {
    replace(document.getElementById('app'), h('div', { class: 'panel' }, t('account.loading')));
    load();
    return;
  }
  draw();
}

function draw() {
  const main = document.getElementById('app');
  const parts = [];
  if (view.account === null) parts.push(claimForm());
  else if (view.account) parts.push(accountInfo(), passwordForm());
  if (view.account && view.bot) parts.push(botPanel());
  parts.push(sessionsPanel());
  replace(main, h('div', { style: 'display:flex;flex-direction:column;gap:1rem;max-width:640px;margin:1rem auto', 'data-testid': 'account-view' },
    h('h1', {}, t('account.title')), ...parts,
    h('p', {}, h('a', { href: '#/' }, t('table.back')))));
}

function passwordInput(id, autocomplete) {
  return h('input', { id, 'data-testid': id, type: 'password', minlength: 8, maxlength: 128, required: true, autocomplete });
}

// claimForm turns the guest into an account, with their name (or another).
function claimForm() {
  const name = h('input', { id: 'claim-name', 'data-testid': 'claim-name', maxlength: 24, required: true, autocomplete: 'username', value: (app.me && app.me.name) || '' });
  const pw = passwordInput('claim-password', 'new-password');
  const again = passwordInput('claim-password2', 'new-password');
  return h('form', {
    class: 'panel', 'data-testid': 'claim-form',
    onsubmit: async (e) => {
      e.preventDefault();
      if (pw.value !== again.value) { toast(t('account.mismatch'), true); return; }
      try {
        const body = { password: pw.value };
        if (name.value.trim() !== app.me.name) body.name = name.value.trim();
        view.account = await api('POST', '/api/account', body);
        // A new name reaches the socket at its next handshake: reconnect
        // now (the connection does it by itself when its socket closes).
        if (body.name && app.conn && app.conn.ws) app.conn.ws.close();
        app.me = { ...app.me, name: view.account.name };
        toast(t('account.claimed', { name: view.account.name }));
        document.dispatchEvent(new CustomEvent('cardroom:me'));
        load();
      } catch (err) { showError(err); }
    },
  },
  h('h2', {}, t('account.claim_title')),
  h('p', {}, t('account.claim_intro')),
  h('p', { class: 'empty' }, t('account.no_recovery')),
  h('label', { class: 'field', for: 'claim-name' }, h('span', {}, t('login.name')), name),
  h('label', { class: 'field', for: 'claim-password' }, h('span', {}, t('account.password')), pw),
  h('label', { class: 'field', for: 'claim-password2' }, h('span', {}, t('account.password_again')), again),
  h('button', { class: 'btn', type: 'submit', 'data-testid': 'claim-submit' }, t('account.claim_button')));
}

function accountInfo() {
  const a = view.account;
  return h('section', { class: 'panel', 'data-testid': 'account-info' },
    h('p', {}, t('account.signed_in', { name: a.name })),
    h('p', { class: 'empty' }, t('account.member_since', { date: when(a.created) })),
    h('button', {
      class: 'btn secondary', type: 'button', 'data-testid': 'logout',
      onclick: async () => {
        try { await api('POST', '/api/logout'); signedOut(); } catch (err) { showError(err); }
      },
    }, t('account.logout')));
}

// passwordForm changes the password; the server ends the other sessions.
function passwordForm() {
  const cur = passwordInput('password-current', 'current-password');
  const pw = passwordInput('password-new', 'new-password');
  const again = passwordInput('password-new2', 'new-password');
  return h('form', {
    class: 'panel', 'data-testid': 'password-form',
    onsubmit: async (e) => {
      e.preventDefault();
      if (pw.value !== again.value) { toast(t('account.mismatch'), true); return; }
      try {
        const r = await api('POST', '/api/account/password', { current: cur.value, password: pw.value });
        toast(t('account.password_changed', { n: r.revoked }));
        load();
      } catch (err) { showError(err); }
    },
  },
  h('h2', {}, t('account.password_title')),
  h('label', { class: 'field', for: 'password-current' }, h('span', {}, t('account.password_current')), cur),
  h('label', { class: 'field', for: 'password-new' }, h('span', {}, t('account.password_new')), pw),
  h('label', { class: 'field', for: 'password-new2' }, h('span', {}, t('account.password_again')), again),
  h('button', { class: 'btn', type: 'submit', 'data-testid': 'password-submit' }, t('account.password_button')));
}

// botPanel lets a program play with the account (docs/bots.md, "Bot
// accounts"): the account is marked as a bot, for good, and gets API
// tokens; a new token is shown once (the server keeps only its hash), and
// each can be revoked, which closes its program's sockets at once.
function botPanel() {
  const b = view.bot;
  const label = h('input', { id: 'bot-label', 'data-testid': 'bot-label', maxlength: 40, autocomplete: 'off' });
  const issue = async (e) => {
    e.preventDefault();
    if (!b.bot && !window.confirm(t('bot.confirm'))) return;
    try {
      const tok = await api('POST', '/api/account/bot', label.value.trim() ? { label: label.value.trim() } : {});
      view.freshToken = tok.token;
      toast(t('bot.issued'));
      load();
    } catch (err) { showError(err); }
  };
  const fresh = view.freshToken
    ? h('div', { class: 'offer', 'data-testid': 'bot-fresh' },
      h('p', {}, t('bot.fresh')),
      h('p', { class: 'row' },
        h('input', { readonly: true, value: view.freshToken, size: 48, 'data-testid': 'bot-fresh-token', 'aria-label': t('bot.token'), onfocus: (e) => e.target.select() }),
        h('button', {
          class: 'btn small secondary', type: 'button', 'data-testid': 'bot-copy',
          onclick: async (e) => {
            try { await navigator.clipboard.writeText(view.freshToken); } catch { const i = e.target.parentNode.querySelector('input'); i.select(); document.execCommand && document.execCommand('copy'); }
            toast(t('bot.copied'));
          },
        }, t('bot.copy'))),
      h('p', { class: 'empty' }, t('bot.usage')))
    : null;
  const rows = (b.tokens || []).map((k) => h('tr', { 'data-testid': 'bot-token-' + k.id },
    h('td', { 'data-label': t('bot.token_label') }, k.label || '—'),
    h('td', { 'data-label': t('account.created') }, when(k.created)),
    h('td', { class: 'aside' }, h('button', {
      class: 'btn small secondary', type: 'button', 'data-testid': 'bot-revoke-' + k.id,
      onclick: async () => {
        try {
          await api('DELETE', '/api/account/bot/tokens/' + encodeURIComponent(k.id));
          toast(t('bot.revoked'));
          load();
        } catch (err) { showError(err); }
      },
    }, t('bot.revoke')))));
  return h('section', { class: 'panel', 'data-testid': 'bot-panel', 'data-bot': b.bot ? '1' : '0' },
    h('h2', {}, t('bot.title')),
    b.bot ? h('p', { 'data-testid': 'bot-since' }, t('bot.since', { date: when(b.since) })) : h('p', {}, t('bot.intro')),
    fresh,
    b.bot ? [
      h('h3', {}, t('bot.tokens')),
      rows.length ? h('table', { class: 'list blocks', 'data-testid': 'bot-tokens' },
        h('thead', {}, h('tr', {}, h('th', {}, t('bot.token_label')), h('th', {}, t('account.created')), h('th', {}))),
        h('tbody', {}, rows)) : h('p', { class: 'empty' }, t('bot.none')),
    ] : null,
    h('form', { class: 'row', onsubmit: issue, style: 'margin-top:.6rem' },
      h('label', { class: 'field', for: 'bot-label' }, h('span', {}, t('bot.label')), label),
      h('button', { class: 'btn', type: 'submit', 'data-testid': b.bot ? 'bot-new-token' : 'bot-make' }, t(b.bot ? 'bot.new_token' : 'bot.make'))));
}

// sessionsPanel lists the sessions (this one marked) with a revoke button
// each, and "log out everywhere".
function sessionsPanel() {
  // data-label, aside: a phone shows each date with its column's name
  // instead of the header row, the badge and the button beside (app.css,
  // table.list.blocks).
  const rows = view.sessions.map((s) => h('tr', { 'data-testid': 'session-' + s.id },
    h('td', { 'data-label': t('account.created') }, when(s.created)),
    h('td', { 'data-label': t('account.expires') }, when(s.expires)),
    h('td', { class: 'aside' }, s.current ? h('span', { class: 'badge gold', 'data-testid': 'session-current' }, t('account.this_device')) : null),
    h('td', { class: 'aside' }, h('button', {
      class: 'btn small secondary', type: 'button', 'data-testid': 'revoke-' + s.id,
      onclick: async () => {
        if (s.current && view.account === null && !window.confirm(t('account.everywhere_confirm_guest'))) return;
        try {
          await api('DELETE', '/api/sessions/' + encodeURIComponent(s.id));
          if (s.current) { signedOut(); return; }
          load();
        } catch (err) { showError(err); }
      },
    }, t('account.revoke')))));
  return h('section', { class: 'panel', 'data-testid': 'sessions' },
    h('h2', {}, t('account.sessions_title')),
    view.account === null ? h('p', { class: 'empty' }, t('account.guest_sessions')) : null,
    h('table', { class: 'list blocks', 'data-testid': 'session-list' },
      h('thead', {}, h('tr', {}, h('th', {}, t('account.created')), h('th', {}, t('account.expires')), h('th', {}), h('th', {}))),
      h('tbody', {}, rows)),
    h('button', {
      class: 'btn danger', type: 'button', 'data-testid': 'logout-everywhere', style: 'margin-top:.6rem',
      onclick: async () => {
        if (!window.confirm(t(view.account ? 'account.everywhere_confirm' : 'account.everywhere_confirm_guest'))) return;
        try { await api('DELETE', '/api/sessions'); signedOut(); } catch (err) { showError(err); }
      },
    }, t('account.everywhere')));
}

// startAccount forgets what the view knew, so entering #/account always
// shows the server's current sessions.
export function startAccount() { view.account = undefined; view.sessions = []; view.bot = null; view.freshToken = null; }

// sessionEnded handles the server's notice that this page's session was
// revoked (from another device, "log out everywhere" or a password
// change): its socket is closing and its cookie no longer works, so the
// page starts again at the login view, which says why. It returns whether
// msg was that notice (an unauthorized error that answers no request: a
// page with a session never sends a request that needs one).
export function sessionEnded(msg) {
  if (msg.type !== 'error' || msg.code !== 'unauthorized' || msg.id !== undefined || msg.table || !app.me) return false;
  if (app.conn) app.conn.close();
  app.me = null;
  sessionStorage.setItem('cardroom.ended', '1');
  location.hash = '#/';
  location.reload();
  return true;
}
