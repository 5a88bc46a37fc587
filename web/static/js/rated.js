// What the lobby needs about ratings and accounts: whether this player has
// an account (rated tables need one), the ratings of the players seated at
// the listed tables, and who is online. Each is fetched lazily and cached
// briefly, so a busy lobby (a message every 200 ms) costs at most one
// batch request per game per RATING_TTL.
import { api } from './net.js';
import { app } from './app.js';

// RATING_TTL is how long a player's lobby rating is reused: ratings move
// only when a rated game ends, and the lobby is not a place to watch them.
const RATING_TTL = 30000;
// BATCH is the most ids one GET /api/ratings/{game}/players asks for
// (the server takes up to 200, store.MaxRatingsOf).
const BATCH = 200;
// ONLINE_EVERY spaces the GET /api/online requests (the server caches its
// answer for a second anyway).
export const ONLINE_EVERY = 10000;

// account: {player, has} once known for the current player; null before.
let account = null;
let accountLoading = null;

// hasAccount reports whether the current player has an account (true),
// is a guest (false) or is not known yet (undefined; onKnown is called
// once it is).
export function hasAccount(onKnown) {
  const me = app.me && app.me.player;
  if (!me) return false;
  if (account && account.player === me) return account.has;
  if (!accountLoading) {
    accountLoading = api('GET', '/api/account').then(() => true, (err) => (err.code === 'no_account' ? false : undefined))
      .then((has) => {
        accountLoading = null;
        if (has === undefined) return; // a failure: asked again at the next draw
        account = { player: me, has };
        if (onKnown) onKnown();
      });
  }
  return undefined;
}

// A claim or a login changes the answer.
document.addEventListener('cardroom:me', () => { account = null; });

// ratingKey is the rated player of a seat: the player id of a person, the
// level's own player ("bot:hard") for a bot, null for an empty seat.
export function ratedPlayer(s) {
  if (!s || s.kind === 'empty') return null;
  if (s.player) return s.player;
  if (s.name && s.name.startsWith('bot:')) return s.name;
  if (s.kind === 'bot' && s.level) return 'bot:' + s.level;
  return null;
}

// cache: game → Map(player → {at, rating?}); an entry without rating is
// a player with no rating in that game (or one being fetched).
const cache = new Map();

// seatRating returns a seat's cached rating for a game
// ({rating, provisional}) or null.
export function seatRating(game, s) {
  const p = ratedPlayer(s);
  const g = cache.get(game);
  const e = p && g && g.get(p);
  return e && e.rating ? e.rating : null;
}

// loadRatings asks, once per game, for the ratings of the seated players
// the cache does not hold fresh; onLoaded is called when any arrived.
export function loadRatings(tables, onLoaded) {
  const want = new Map(); // game → Set(player)
  const now = Date.now();
  for (const tb of tables) {
    for (const s of tb.seats || []) {
      const p = ratedPlayer(s);
      if (!p) continue;
      const g = cache.get(tb.game);
      const e = g && g.get(p);
      if (e && now - e.at < RATING_TTL) continue;
      if (!want.has(tb.game)) want.set(tb.game, new Set());
      want.get(tb.game).add(p);
    }
  }
  for (const [game, set] of want) {
    if (!cache.has(game)) cache.set(game, new Map());
    const g = cache.get(game);
    const ids = [...set].slice(0, BATCH);
    for (const p of ids) g.set(p, { at: now, rating: g.get(p) && g.get(p).rating }); // in flight: not asked again
    const q = ids.map((p) => 'id=' + encodeURIComponent(p)).join('&');
    api('GET', `/api/ratings/${encodeURIComponent(game)}/players?${q}`).then((r) => {
      for (const p of ids) g.set(p, { at: Date.now() }); // not rated until the answer says so
      for (const pr of r.players || []) g.set(pr.player, { at: Date.now(), rating: { rating: pr.rating, provisional: !!pr.provisional } });
      if (onLoaded) onLoaded();
    }).catch(() => { /* kept as unknown until RATING_TTL has passed */ });
  }
}

// online: the last GET /api/online answer ({count, players}) or null.
let online = null;
let onlineAt = 0;

// whoIsOnline returns the last answer and asks again when it is older
// than ONLINE_EVERY; onLoaded is called with a new one.
export function whoIsOnline(onLoaded) {
  const now = Date.now();
  if (now - onlineAt >= ONLINE_EVERY) {
    onlineAt = now;
    api('GET', '/api/online').then((o) => { online = o; if (onLoaded) onLoaded(); }).catch(() => {});
  }
  return online;
}
