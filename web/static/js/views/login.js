// The login view: a name, then the session cookie.
import { h, replace } from '../dom.js';
import { t, currentLang } from '../i18n.js';
import { gameNames, gameTitle } from '../games.js';
import { api } from '../net.js';
import { app, showError } from '../app.js';

// renderLogin asks for a name; onEntered runs once the session exists.
export function renderLogin(onEntered) {
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
        onEntered();
      } catch (err) { showError(err); }
    },
  },
  h('h1', {}, t('login.title')),
  h('p', {}, t('login.intro', { games: gameList() })),
  h('label', { class: 'field', for: 'name' }, h('span', {}, t('login.name')), input),
  h('button', { class: 'btn', type: 'submit', 'data-testid': 'name-submit' }, t('login.enter')));
  replace(main, form);
  input.focus();
}

// gameList names every registered game as a list in the page's language
// ("Papayoo, 500 Rum and Pis Yedili").
function gameList() {
  const titles = gameNames().map(gameTitle);
  try { return new Intl.ListFormat(currentLang(), { type: 'conjunction' }).format(titles); } catch { return titles.join(', '); }
}
