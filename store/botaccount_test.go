package store

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestBotAccountsContract runs the same checks on both implementations:
// only an account can be marked, marking is idempotent, tokens need a bot,
// are bounded per bot, listed newest first and deleted only by their own
// bot.
func TestBotAccountsContract(t *testing.T) {
	sq, err := OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sq.Close() })
	all := map[string]interface {
		Accounts
		BotAccounts
	}{"sqlite": sq, "memory": NewMemory()}
	if p := pgStore(t); p != nil {
		all["postgres"] = p
	}
	for name, st := range all {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			now := time.Now().UTC().Truncate(time.Millisecond)
			if _, err := st.MarkBot(ctx, "p1", now); !errors.Is(err, ErrNotFound) {
				t.Fatalf("marking a guest: %v, want ErrNotFound", err)
			}
			for _, p := range []string{"p1", "p2"} {
				if err := st.CreateAccount(ctx, Account{Player: p, Name: p, Skeleton: p, Hash: "h", Created: now, PasswordChanged: now}); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.CreateBotToken(ctx, BotToken{Hash: "t0", Player: "p1", Created: now}, 5); !errors.Is(err, ErrNotBot) {
				t.Fatalf("token of a non-bot: %v, want ErrNotBot", err)
			}
			since, err := st.MarkBot(ctx, "p1", now)
			if err != nil || !since.Equal(now) {
				t.Fatalf("MarkBot = %v, %v; want %v", since, err, now)
			}
			if again, err := st.MarkBot(ctx, "p1", now.Add(time.Hour)); err != nil || !again.Equal(now) {
				t.Fatalf("marking again = %v, %v; want the first time %v", again, err, now)
			}
			if bs, err := st.Bots(ctx, 10); err != nil || !slices.Equal(bs, []Bot{{"p1", now}}) {
				t.Fatalf("Bots = %v, %v", bs, err)
			}
			if bs, err := st.Bots(ctx, 0); err != nil || len(bs) != 0 {
				t.Fatalf("Bots with limit 0 = %v, %v", bs, err)
			}
			for i, h := range []string{"t1", "t2"} {
				if err := st.CreateBotToken(ctx, BotToken{Hash: h, Player: "p1", Label: h, Created: now.Add(time.Duration(i) * time.Second)}, 2); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.CreateBotToken(ctx, BotToken{Hash: "t3", Player: "p1", Created: now}, 2); !errors.Is(err, ErrTooManyTokens) {
				t.Fatalf("third token with a limit of 2: %v, want ErrTooManyTokens", err)
			}
			ts, err := st.BotTokensOf(ctx, "p1")
			if err != nil || len(ts) != 2 || ts[0].Hash != "t2" || ts[1].Label != "t1" || !ts[1].Created.Equal(now) {
				t.Fatalf("BotTokensOf = %+v, %v; want t2 then t1", ts, err)
			}
			if got, err := st.BotToken(ctx, "t1"); err != nil || got.Player != "p1" {
				t.Fatalf("BotToken(t1) = %+v, %v", got, err)
			}
			if _, err := st.BotToken(ctx, "nope"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("unknown token: %v, want ErrNotFound", err)
			}
			if err := st.DeleteBotToken(ctx, "p2", "t1"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("another player deletes t1: %v, want ErrNotFound", err)
			}
			if err := st.DeleteBotToken(ctx, "p1", "t1"); err != nil {
				t.Fatal(err)
			}
			if _, err := st.BotToken(ctx, "t1"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("deleted token still found: %v", err)
			}
			if err := st.CreateBotToken(ctx, BotToken{Hash: "t3", Player: "p1", Created: now}, 2); err != nil {
				t.Fatalf("a token after one was deleted: %v", err)
			}
		})
	}
}
