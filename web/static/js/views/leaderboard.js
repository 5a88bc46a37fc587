// The leaderboard view (#/ratings/GAME): a game's rated players, best
// conservative rating first, paged; the player's own rating in that game
// above it. Bot levels are rated players too (docs/ratings.md), shown with
// a badge so a player's number reads against "medium" and "hard".
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../net.js';
import { app, showError, onRoute, go } from '../app.js';
import { gameNames, gameTitle } from '../games.js';
import { profileLink } from './profile.js';

// PAGE is one page of the leaderboard (the server allows 1 to 100).
const PAGE = 50;

// view is the page on screen: its game and offset, and what the server said.
const view = { game: '', offset: 0, board: null, mine: null, loading: false };

// startLeaderboard is called on every visit of the route: it loads the
// game's first page (or the page in the route: #/ratings/GAME/OFFSET).
export function startLeaderboard(game, offset) {
  const games = gameNames();
  view.game = games.includes(game) ? game : games[0];
  view.offset = Math.max(0, parseInt(offset, 10) || 0);
  view.board = null;
  load();
}

async function load() {
  const game = view.game;
  const offset = view.offset;
  view.loading = true;
  try {
    const board = await api('GET', `/api/ratings/${encodeURIComponent(game)}?offset=${offset}&limit=${PAGE}`);
    let mine = null;
    if (app.me && app.me.player) {
      const r = await api('GET', `/api/players/${encodeURIComponent(app.me.player)}/ratings?game=${encodeURIComponent(game)}&limit=1`);
      mine = (r.ratings || []).find((x) => x.game === game) || null;
    }
    if (game !== view.game || offset !== view.offset) return; // another page was asked for meanwhile
    view.board = board;
    view.mine = mine;
  } catch (err) {
    showError(err);
    view.board = { players: [], total: 0, offset };
  }
  view.loading = false;
  if (onRoute('ratings')) renderLeaderboard();
}

// ratingText is a rating as shown: provisional ones marked.
function ratingText(p) {
  return p.provisional ? t('ratings.provisional_value', { rating: p.rating }) : String(p.rating);
}

// renderLeaderboard draws the view.
export function renderLeaderboard() {
  const main = document.getElementById('app');
  const tabs = h('div', { class: 'quick', role: 'tablist', 'aria-label': t('ratings.game') }, gameNames().map((g) => h('button', {
    class: 'btn' + (g === view.game ? '' : ' secondary'), type: 'button', role: 'tab', 'aria-selected': String(g === view.game),
    'data-testid': 'ratings-game-' + g, onclick: () => go('#/ratings/' + g),
  }, gameTitle(g))));
  const parts = [h('h1', {}, t('ratings.title')), tabs];
  if (!view.board) {
    parts.push(h('p', { class: 'empty' }, t('ratings.loading')));
  } else {
    if (view.mine) {
      parts.push(h('p', { 'data-testid': 'ratings-mine' }, t('ratings.mine', { rating: ratingText(view.mine), games: view.mine.games, n: view.mine.games })));
    }
    parts.push(h('p', { class: 'empty' }, t('ratings.explain')));
    const rows = view.board.players || [];
    if (!rows.length) {
      parts.push(h('p', { class: 'empty', 'data-testid': 'ratings-empty' }, t('ratings.empty')));
    } else {
      parts.push(h('table', { class: 'list leaderboard', 'data-testid': 'ratings-table' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, t('ratings.rank')), h('th', { scope: 'col' }, t('ratings.player')),
          h('th', { scope: 'col' }, t('ratings.rating')), h('th', { scope: 'col' }, t('ratings.games')))),
        h('tbody', {}, rows.map((p, i) => h('tr', { 'data-player': p.player, style: app.me && p.player === app.me.player ? 'font-weight:700' : '' },
          h('td', {}, String(view.board.offset + i + 1)),
          h('td', {}, profileLink(p.player, p.name, { 'data-testid': 'ratings-player' }), p.bot ? h('span', { class: 'badge', style: 'margin-left:.4rem', title: t('ratings.bot_title') }, t('ratings.bot')) : null),
          h('td', { title: p.provisional ? t('ratings.provisional_title') : '' }, ratingText(p)),
          h('td', {}, String(p.games)))))));
    }
    const total = view.board.total || 0;
    const prev = view.offset > 0;
    const next = view.offset + PAGE < total;
    if (prev || next) {
      parts.push(h('div', { class: 'quick' },
        prev ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'ratings-prev', onclick: () => go(`#/ratings/${view.game}/${Math.max(0, view.offset - PAGE)}`) }, t('ratings.prev')) : null,
        next ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'ratings-next', onclick: () => go(`#/ratings/${view.game}/${view.offset + PAGE}`) }, t('ratings.next')) : null));
    }
  }
  parts.push(h('p', {}, h('a', { href: '#/' }, t('table.back'))));
  replace(main, h('div', { class: 'panel', style: 'max-width:720px;margin:1rem auto', 'data-testid': 'ratings-view' }, ...parts));
}
