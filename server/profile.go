package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store"
)

// Player profiles (docs/protocol.md, "Profiles"): GET /api/players/{id}.

// Bounds of the profile endpoint (range-checked; docs/protocol.md).
const (
	// DefaultRecentGames is the page of recent games without ?limit=.
	DefaultRecentGames = 10
	// ProfileHistory is how many rating changes per game the chart gets:
	// enough for a line that shows a trend, and a bounded answer (at most
	// one series per game).
	ProfileHistory = 100
)

// errProfileStore is an answer the store could not give.
var errProfileStore = errors.New("the profile cannot be read now; retry")

// profilesStore is the store's Profiles, or nil when it keeps none.
func (s *Server) profilesStore() store.Profiles {
	p, _ := s.store.(store.Profiles)
	return p
}

func (s *Server) profileRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/players/{player}", s.handleProfile)
}

// handleProfile answers a player's profile as the caller may see it: the
// caller is the session's player, or nobody without a valid session (a
// bad token is not an error here: a profile is public, the caller only
// widens what it shows to the private tables they shared).
func (s *Server) handleProfile(w http.ResponseWriter, r *http.Request) {
	player := r.PathValue("player")
	if player == "" || len(player) > maxPlayerID {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, fmt.Sprintf("a player id has 1 to %d bytes", maxPlayerID))
		return
	}
	offset, err := queryInt(r, "offset", 0, 0, store.MaxRecentOffset)
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, err.Error())
		return
	}
	limit, err := queryInt(r, "limit", DefaultRecentGames, 1, store.MaxRecentGames)
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, err.Error())
		return
	}
	if s.profilesStore() == nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "this room keeps no profiles")
		return
	}
	var viewer store.Session
	if sess, err := s.session(r); err == nil {
		viewer = sess
	}
	p, found, err := s.profile(r.Context(), player, viewer, offset, limit)
	if err != nil {
		s.log.Warn("profile", "player", player, "err", err)
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, errProfileStore.Error())
		return
	}
	if !found {
		writeErr(w, http.StatusNotFound, protocol.NoPlayer, fmt.Sprintf("no player %.64q", player))
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// profile gathers the profile of player seen by viewer. found is false for
// a player the caller cannot know of: no account, no rating, no finished
// game the caller may see, and not the caller.
func (s *Server) profile(ctx context.Context, player string, viewer store.Session, offset, limit int) (protocol.Profile, bool, error) {
	ps := s.profilesStore()
	out := protocol.Profile{Player: player, Offset: offset, Played: []protocol.ProfileGames{}, Ratings: []protocol.PlayerRating{},
		History: []protocol.RatingSeries{}, Recent: []protocol.ProfileGame{},
		Bot: store.IsBotPlayer(player) || s.isBotAccount(player)}
	self := viewer.Player != "" && viewer.Player == player
	if self {
		out.Name = viewer.Name
	}
	if s.acct != nil && s.acct.st != nil {
		acc, err := s.acct.st.AccountByPlayer(ctx, player)
		switch {
		case err == nil:
			out.Account, out.Name = true, acc.Name
			since := acc.Created
			out.MemberSince = &since
		case !errors.Is(err, store.ErrNotFound):
			return out, false, err
		}
	}
	tally, err := ps.PlayerTally(ctx, player, viewer.Player)
	if err != nil {
		return out, false, err
	}
	for _, g := range tally {
		out.Played = append(out.Played, protocol.ProfileGames{Game: g.Game, Games: g.Games, Wins: g.Wins})
		out.Total += g.Games
	}
	recent, err := ps.RecentGames(ctx, player, viewer.Player, offset, limit)
	if err != nil {
		return out, false, err
	}
	for _, t := range recent {
		it := protocol.ProfileGame{ID: t.ID, Game: t.Game, Rated: t.Rated, Finished: t.Finished, Seat: -1, Seats: []string{}}
		for i, st := range t.Seats {
			it.Seats = append(it.Seats, st.Name)
			if st.Player == player && it.Seat < 0 {
				it.Seat = game.Seat(i)
				if out.Name == "" {
					out.Name = st.Name // a guest: their name at their latest game on this page
				}
			}
		}
		it.Won = slices.ContainsFunc(t.Winners, func(w game.Seat) bool { return it.Seat >= 0 && w == it.Seat })
		out.Recent = append(out.Recent, it)
	}
	if rs := s.ratingsStore(); rs != nil {
		cur, err := rs.PlayerRatings(ctx, player)
		if err != nil {
			return out, false, err
		}
		for _, c := range cur {
			out.Ratings = append(out.Ratings, wirePlayerRating(c))
			if out.Name == "" {
				out.Name = c.Name
			}
			hist, err := rs.RatingHistory(ctx, player, c.Game, ProfileHistory)
			if err != nil {
				return out, false, err
			}
			series := protocol.RatingSeries{Game: c.Game, Points: []protocol.RatingPoint{}}
			for i := len(hist) - 1; i >= 0; i-- { // oldest first, as a chart reads
				h := hist[i]
				series.Points = append(series.Points, protocol.RatingPoint{At: h.At, Rating: h.After.Display(), Provisional: RatingParams.Provisional(h.After)})
			}
			out.History = append(out.History, series)
		}
	}
	if out.Name == "" && out.Total > 0 {
		// A guest whose latest games are on other pages: the newest one.
		first, err := ps.RecentGames(ctx, player, viewer.Player, 0, 1)
		if err != nil {
			return out, false, err
		}
		for _, t := range first {
			for _, st := range t.Seats {
				if st.Player == player && out.Name == "" {
					out.Name = st.Name
				}
			}
		}
	}
	found := self || out.Account || out.Total > 0 || len(out.Ratings) > 0
	if out.Name == "" {
		out.Name = player
	}
	return out, found, nil
}
