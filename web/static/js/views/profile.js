// The profile view (#/players/ID, #/players/ID/OFFSET): a player's public
// facts from GET /api/players/{id} (docs/protocol.md, "Profiles"): name,
// account or guest, member since, games and wins per game, the current
// ratings, the rating history per game as a small SVG line chart drawn
// here (no library), and the recent games with links to their replays.
// The server counts only the games this caller may see (a private table's
// record is for its own players), so the view shows what it is given.
import { h, replace } from '../dom.js';
import { t, currentLang } from '../i18n.js';
import { api } from '../net.js';
import { app, showError, onRoute, go, backLinks } from '../app.js';
import { gameTitle } from '../games.js';

// PAGE is one page of recent games (the server allows 1 to 50).
const PAGE = 10;

// view is the page on screen: whose profile, the page, what the server said.
const view = { id: '', offset: 0, profile: null, missing: false };

// startProfile is called on every visit of the route.
export function startProfile(id, offset) {
  view.id = id || '';
  view.offset = Math.max(0, parseInt(offset, 10) || 0);
  view.profile = null;
  view.missing = false;
  load();
}

async function load() {
  const { id, offset } = view;
  if (!id) { view.missing = true; if (onRoute('players')) renderProfile(); return; }
  try {
    const p = await api('GET', `/api/players/${encodeURIComponent(id)}?offset=${offset}&limit=${PAGE}`);
    if (id !== view.id || offset !== view.offset) return; // another page was asked for meanwhile
    view.profile = p;
  } catch (err) {
    if (id !== view.id || offset !== view.offset) return;
    // no_player is this page's one message; anything else is a toast too.
    if (!err || err.code !== 'no_player') showError(err);
    view.missing = true;
  }
  if (onRoute('players')) renderProfile();
}

// profileLink is a player's name as a link to their profile (the
// leaderboard and the header use it).
export function profileLink(player, name, attrs = {}) {
  return h('a', { href: '#/players/' + encodeURIComponent(player), ...attrs }, playerName(name || player));
}

// playerName says a rated player's name: a bot level's pseudo-player
// ("bot:medium") in the reader's language, like its seats.
export function playerName(name) {
  return typeof name === 'string' && name.startsWith('bot:') ? t('bot.short', { level: t('level.' + name.slice(4)) }) : name;
}

function dateText(iso, withTime) {
  try {
    const o = withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' };
    return new Intl.DateTimeFormat(currentLang(), o).format(new Date(iso));
  } catch { return iso; }
}

// ratingText is a rating as shown: provisional ones marked.
function ratingText(r) {
  return r.provisional ? t('ratings.provisional_value', { rating: r.rating }) : String(r.rating);
}

// ---------- the chart ----------

const SVG = 'http://www.w3.org/2000/svg';

function s(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'style') e.style.cssText = v; // CSSOM: the CSP refuses style markup
    else e.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// Chart geometry, in viewBox units: the SVG scales to its box's width. A
// narrow screen gets a narrower viewBox, so that the labels keep a
// readable size when the chart shrinks to fit.
const H = 180, L = 46, R = 12, T = 12, B = 26;
function chartWidth() { return window.innerWidth < 640 ? 360 : 600; }

// A window that crosses the width at which the viewBox changes (a phone
// turned) redraws the profile on screen.
let drawnWidth = 0;
window.addEventListener('resize', () => {
  if (onRoute('players') && view.profile && chartWidth() !== drawnWidth) renderProfile();
});

// ratingChart draws one game's series, oldest first: a line through the
// ratings after each rated game, evenly spaced (games, not days, are what
// move a rating). A segment that ends at a provisional rating is dashed
// and its point hollow: the number said little yet.
export function ratingChart(game, points) {
  const W = chartWidth();
  drawnWidth = W;
  const n = points.length;
  const vals = points.map((p) => p.rating);
  let lo = Math.min(...vals), hi = Math.max(...vals);
  if (hi - lo < 40) { const mid = (hi + lo) / 2; lo = mid - 20; hi = mid + 20; }
  const x = (i) => (n === 1 ? L + (W - L - R) / 2 : L + (i * (W - L - R)) / (n - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  let solid = '', dashed = '';
  for (let i = 1; i < n; i++) {
    const seg = `M${x(i - 1).toFixed(1)} ${y(vals[i - 1]).toFixed(1)}L${x(i).toFixed(1)} ${y(vals[i]).toFixed(1)}`;
    if (points[i].provisional) dashed += seg; else solid += seg;
  }
  const first = vals[0], last = vals[n - 1];
  const label = t('profile.chart_label', { game: gameTitle(game), from: first, to: last, n });
  const grid = [hi, (hi + lo) / 2, lo].map((v) => [
    s('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: '#e7eaee', 'stroke-width': 1 }),
    s('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 12, style: 'fill:var(--muted)' }, String(Math.round(v))),
  ]).flat();
  const dots = points.map((p, i) => s('circle', {
    cx: x(i), cy: y(p.rating), r: 3.5, 'stroke-width': 2, 'data-provisional': String(!!p.provisional),
    style: p.provisional ? 'stroke:var(--muted);fill:var(--panel)' : 'stroke:var(--felt);fill:var(--felt)',
  }, s('title', {}, `${dateText(p.at, true)}: ${ratingText(p)}`)));
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, 'data-testid': 'profile-chart-' + game,
    style: 'width:100%;height:auto;display:block;max-width:100%',
  },
  s('title', {}, label),
  ...grid,
  solid ? s('path', { d: solid, fill: 'none', 'stroke-width': 2.5, 'stroke-linecap': 'round', style: 'stroke:var(--felt)', 'data-testid': 'chart-solid' }) : null,
  dashed ? s('path', { d: dashed, fill: 'none', 'stroke-width': 2, 'stroke-dasharray': '6 5', style: 'stroke:var(--muted)', 'data-testid': 'chart-provisional' }) : null,
  ...dots,
  s('text', { x: L, y: H - 6, 'font-size': 12, style: 'fill:var(--muted)' }, dateText(points[0].at)),
  n > 1 ? s('text', { x: W - R, y: H - 6, 'font-size': 12, 'text-anchor': 'end', style: 'fill:var(--muted)' }, dateText(points[n - 1].at)) : null);
  return svg;
}

// ---------- the view ----------

function tallyTable(p) {
  const rating = new Map((p.ratings || []).map((r) => [r.game, r]));
  const games = [...new Set([...(p.played || []).map((g) => g.game), ...rating.keys()])].sort();
  if (!games.length) return h('p', { class: 'empty', 'data-testid': 'profile-no-games' }, t('profile.no_games'));
  const played = new Map((p.played || []).map((g) => [g.game, g]));
  return h('table', { class: 'list', 'data-testid': 'profile-games' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('profile.game')), h('th', { scope: 'col' }, t('profile.games')),
      h('th', { scope: 'col' }, t('profile.wins')), h('th', { scope: 'col' }, t('ratings.rating')))),
    h('tbody', {}, games.map((g) => {
      const c = played.get(g) || { games: 0, wins: 0 };
      const r = rating.get(g);
      return h('tr', { 'data-game': g },
        h('td', {}, gameTitle(g)),
        h('td', {}, String(c.games)),
        h('td', {}, String(c.wins)),
        h('td', { title: r && r.provisional ? t('ratings.provisional_title') : '' },
          r ? h('a', { href: '#/ratings/' + g }, ratingText(r)) : '–'));
    })));
}

function charts(p) {
  const series = (p.history || []).filter((x) => (x.points || []).length > 0);
  if (!series.length) return null;
  return h('section', { 'data-testid': 'profile-charts' },
    h('h2', {}, t('profile.history')),
    h('p', { class: 'empty', style: 'padding:0' }, t('profile.chart_legend')),
    series.map((x) => h('figure', { style: 'margin:.6rem 0' },
      h('figcaption', {}, gameTitle(x.game)),
      ratingChart(x.game, x.points))));
}

function recentList(p) {
  const rows = p.recent || [];
  const parts = [h('h2', {}, t('profile.recent'))];
  if (!rows.length) {
    parts.push(h('p', { class: 'empty', 'data-testid': 'profile-no-recent' }, t('profile.no_recent')));
  } else {
    // Three columns, so that a phone's width holds them: the game and when,
    // the players (the profile's own in bold), the result and the replay.
    parts.push(h('table', { class: 'list', 'data-testid': 'profile-recent' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('profile.game')), h('th', { scope: 'col' }, t('profile.players')),
        h('th', { scope: 'col' }, t('profile.result')))),
      h('tbody', {}, rows.map((g) => h('tr', { 'data-table': g.id },
        h('td', {}, gameTitle(g.game), h('div', { class: 'meta' }, dateText(g.finished)),
          g.rated ? h('div', { class: 'meta' }, t('profile.rated')) : null),
        h('td', {}, (g.seats || []).map((name, i) => [i > 0 ? ', ' : '', i === g.seat ? h('strong', {}, name) : name])),
        h('td', {}, g.won ? h('span', { class: 'badge gold' }, t('profile.won')) : t('profile.lost'),
          h('div', {}, h('a', { href: '#/replay/' + encodeURIComponent(g.id), 'data-testid': 'profile-replay' }, t('profile.replay')))))))));
  }
  const total = p.total || 0;
  const prev = view.offset > 0;
  const next = view.offset + PAGE < total;
  if (prev || next) {
    const base = '#/players/' + encodeURIComponent(view.id) + '/';
    parts.push(h('div', { class: 'quick' },
      prev ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'profile-prev', onclick: () => go(base + Math.max(0, view.offset - PAGE)) }, t('ratings.prev')) : null,
      next ? h('button', { class: 'btn small secondary', type: 'button', 'data-testid': 'profile-next', onclick: () => go(base + (view.offset + PAGE)) }, t('ratings.next')) : null));
  }
  return h('section', {}, parts);
}

// renderProfile draws the view.
export function renderProfile() {
  const main = document.getElementById('app');
  const p = view.profile;
  const parts = [];
  if (!p) {
    parts.push(h('h1', {}, t('profile.title')));
    parts.push(h('p', { class: 'empty', 'data-testid': view.missing ? 'profile-missing' : 'profile-loading' },
      view.missing ? t('profile.missing') : t('profile.loading')));
  } else {
    const mine = app.me && app.me.player === p.player;
    parts.push(h('h1', { 'data-testid': 'profile-name' }, playerName(p.name),
      p.bot ? h('span', { class: 'badge', style: 'margin-left:.5rem', title: t('ratings.bot_title') }, t('ratings.bot')) : null));
    const since = p.account && p.member_since ? t('profile.member_since', { date: dateText(p.member_since) }) : t('profile.guest');
    parts.push(h('p', { 'data-testid': 'profile-since' }, since,
      mine ? [' · ', h('a', { href: '#/account' }, t('account.link'))] : null));
    parts.push(tallyTable(p));
    parts.push(charts(p));
    parts.push(recentList(p));
  }
  parts.push(h('p', { class: 'row' }, backLinks()));
  replace(main, h('div', { class: 'panel', style: 'max-width:720px;margin:1rem auto', 'data-testid': 'profile-view' }, ...parts));
}
