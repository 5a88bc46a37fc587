// The login view: play at once as a guest (a name, then the session
// cookie), or log in to an account (name and password) from any device.
import { h, replace } from '../dom.js';
import { t, currentLang } from '../i18n.js';
import { gameNames, gameTitle } from '../games.js';
import { api } from '../net.js';
import { app, showError } from '../app.js';

// renderLogin shows both forms side by side; onEntered runs once the
// session exists.
export function renderLogin(onEntered) {
  const main = document.getElementById('app');
  const input = h('input', {
    id: 'name', 'data-testid': 'name-input', maxlength: 24, required: true, autocomplete: 'nickname',
    value: localStorage.getItem('cardroom.name') || '',
  });
  const form = h('form', {
    class: 'panel', style: 'flex:1 1 300px;max-width:420px',
    onsubmit: async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      try {
        app.me = await api('POST', '/api/session', { name });
        localStorage.setItem('cardroom.name', name);
        onEntered();
      } catch (err) { showError(err); }
    },
  },
  h('h1', {}, t('login.title')),
  ended(),
  h('p', {}, t('login.intro', { games: gameList() })),
  h('label', { class: 'field', for: 'name' }, h('span', {}, t('login.name')), input),
  h('button', { class: 'btn', type: 'submit', 'data-testid': 'name-submit' }, t('login.enter')));
  replace(main, h('div', { class: 'row', style: 'align-items:flex-start;justify-content:center;gap:1rem;margin:2rem auto' }, form, accountLogin(onEntered)));
  input.focus();
}

// endedHere: this page load follows views/account.js sessionEnded. The
// flag is read once per load (the view is drawn more than once).
const endedHere = sessionStorage.getItem('cardroom.ended') === '1';
sessionStorage.removeItem('cardroom.ended');

// ended says, after such a reload, that the session was ended elsewhere.
function ended() {
  return endedHere ? h('p', { role: 'alert', 'data-testid': 'session-ended' }, t('account.ended')) : null;
}

// accountLogin is the "log in" form of an account: the same player id
// (and history) on any device.
function accountLogin(onEntered) {
  const name = h('input', { id: 'login-name', 'data-testid': 'login-name', maxlength: 24, required: true, autocomplete: 'username' });
  const pw = h('input', { id: 'login-password', 'data-testid': 'login-password', type: 'password', maxlength: 128, required: true, autocomplete: 'current-password' });
  return h('form', {
    class: 'panel', style: 'flex:1 1 300px;max-width:420px', 'data-testid': 'login-form',
    onsubmit: async (e) => {
      e.preventDefault();
      if (!name.value.trim() || !pw.value) return;
      try {
        app.me = await api('POST', '/api/login', { name: name.value.trim(), password: pw.value });
        pw.value = '';
        onEntered();
      } catch (err) { showError(err); }
    },
  },
  h('h2', {}, t('account.login_title')),
  h('p', {}, t('account.login_intro')),
  h('label', { class: 'field', for: 'login-name' }, h('span', {}, t('login.name')), name),
  h('label', { class: 'field', for: 'login-password' }, h('span', {}, t('account.password')), pw),
  h('button', { class: 'btn secondary', type: 'submit', 'data-testid': 'login-submit' }, t('account.login_button')));
}

// gameList names every registered game as a list in the page's language
// ("Papayoo, 500 Rum and Pis Yedili").
function gameList() {
  const titles = gameNames().map(gameTitle);
  try { return new Intl.ListFormat(currentLang(), { type: 'conjunction' }).format(titles); } catch { return titles.join(', '); }
}
