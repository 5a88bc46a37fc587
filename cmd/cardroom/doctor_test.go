package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/games"
	"cardroom/record"
	"cardroom/store"
)

// playedLog plays steps of a random Papayoo game and returns the log as a
// table would have appended it (comments are not logged).
func playedLog(t *testing.T, seed uint64, steps int) (string, []record.Entry) {
	t.Helper()
	eng, err := games.Lookup("papayoo")
	if err != nil {
		t.Fatal(err)
	}
	opts, _ := game.ParseOptions("players=4")
	st, err := eng.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRand(seed)
	rc := record.NewRecorder(eng, st.Options(), nil, "")
	if err := record.Play(st, &rng, record.RandomPolicy(&rng), rc, steps); err != nil {
		t.Fatal(err)
	}
	var log []record.Entry
	for _, e := range rc.Rec.Entries {
		if !e.Comment {
			log = append(log, e)
		}
	}
	return st.Options().String(), log
}

// doctorRoom makes a data directory with three unfinished tables (and a
// finished one the doctor does not list) and returns it.
func doctorRoom(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	st, err := store.OpenSQLite(filepath.Join(dir, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for i, id := range []string{"t_a", "t_b", "t_c", "t_done"} {
		opts, log := playedLog(t, uint64(i+1), 30)
		status := store.StatusPlaying
		if id == "t_done" {
			status = store.StatusFinished
		}
		meta := store.Table{ID: id, Game: "papayoo", Options: opts, Seed: uint64(i), Created: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Status: status,
			Seats: []store.Seat{{Player: "p1", Name: "alice"}, {Bot: "random", Name: "bot:random"}, {Bot: "random", Name: "bot:random"}, {}}}
		if err := st.CreateTable(ctx, meta); err != nil {
			t.Fatal(err)
		}
		for seq, e := range log {
			if err := st.Append(ctx, id, seq, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

func TestDoctorHealthy(t *testing.T) {
	dir := doctorRoom(t)
	out, errOut, code := runCLI(t, "doctor", "-data", dir)
	if code != 0 {
		t.Fatalf("exit %d on a healthy room:\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"integrity: ok", "unfinished tables: 3", "t_a", "t_b", "t_c", "30 events  replays", "healthy"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "t_done") {
		t.Errorf("finished table listed:\n%s", out)
	}

	out, _, code = runCLI(t, "doctor", "-data", dir, "-json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}
	if !rep.Healthy || len(rep.Tables) != 3 || !rep.Tables[1].Replays || rep.Tables[1].Events != 30 || len(rep.Damaged) != 0 {
		t.Errorf("report %+v", rep)
	}

	// -table prints the row, the seats and a record that replays.
	out, errOut, code = runCLI(t, "doctor", "-data", dir, "-table", "t_b")
	if code != 0 {
		t.Fatalf("-table: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"table t_b", "status playing", "0  alice (player p1)", "1  bot:random (bot random)", "3  (empty)", "log: 30 events, replays", `[Table "t_b"]`} {
		if !strings.Contains(out, want) {
			t.Errorf("-table output lacks %q:\n%s", want, out)
		}
	}
	rec, err := record.ParseString(out[strings.Index(out, "[Game"):])
	if err != nil {
		t.Fatalf("-table record: %v", err)
	}
	eng, _ := games.Lookup("papayoo")
	if _, err := record.Replay(eng, rec, nil); err != nil || len(rec.Entries) != 30 {
		t.Errorf("-table record: %d entries, replay %v", len(rec.Entries), err)
	}
}

func TestDoctorDamaged(t *testing.T) {
	dir := doctorRoom(t)
	db, err := sql.Open("sqlite", filepath.Join(dir, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	// t_b loses an entry (a gap); t_c's last move becomes one the engine refuses.
	for _, q := range []string{
		`DELETE FROM events WHERE table_id = 't_b' AND seq = 10`,
		`UPDATE events SET text = 'play ZZ' WHERE table_id = 't_c' AND seq = 29`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	out, _, code := runCLI(t, "doctor", "-data", dir)
	if code != 1 {
		t.Fatalf("exit %d on a damaged room, want 1:\n%s", code, out)
	}
	for _, want := range []string{"integrity: ok", "t_b", "gap at 10", "t_c", "event 29", "damaged: 2 table(s) would be quarantined: t_b, t_c"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, _, code = runCLI(t, "doctor", "-data", dir, "-json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 {
		t.Fatalf("json: exit %d, %v", code, err)
	}
	if rep.Healthy || strings.Join(rep.Damaged, ",") != "t_b,t_c" || !rep.Tables[0].Replays {
		t.Errorf("report %+v", rep)
	}
	if out, _, code := runCLI(t, "doctor", "-data", dir, "-table", "t_b"); code != 1 || !strings.Contains(out, "log: DAMAGED") || !strings.Contains(out, "gap at 10") {
		t.Errorf("-table of the damaged table: exit %d\n%s", code, out)
	}
	// A log that reads but does not replay is still shown, for forensics.
	if out, _, code := runCLI(t, "doctor", "-data", dir, "-table", "t_c"); code != 1 || !strings.Contains(out, "play ZZ") {
		t.Errorf("-table of the table that does not replay: exit %d\n%s", code, out)
	}
}

// TestDoctorExtraSeat: a taken seat row past the game's seats (which the
// room's restart refuses, quarantining the table) is damage to the doctor
// too.
func TestDoctorExtraSeat(t *testing.T) {
	dir := doctorRoom(t)
	db, err := sql.Open("sqlite", filepath.Join(dir, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO seats(table_id, seat, player, name, bot, account) VALUES ('t_a', 9, 'p1', 'x', '', 0)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, _, code := runCLI(t, "doctor", "-data", dir)
	if code != 1 || !strings.Contains(out, "seat 9 is taken but the game has 4 seats") || !strings.Contains(out, "would be quarantined: t_a") {
		t.Errorf("exit %d, want 1 naming t_a's seat 9:\n%s", code, out)
	}
}

func TestDoctorErrors(t *testing.T) {
	dir := doctorRoom(t)
	if _, _, code := runCLI(t, "doctor", "-data", dir, "-nope"); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
	if _, _, code := runCLI(t, "doctor", "-data", dir, "extra"); code != 2 {
		t.Errorf("extra argument: exit %d, want 2", code)
	}
	if _, errOut, code := runCLI(t, "doctor", "-data", dir, "-table", "t_zz"); code != 1 || !strings.Contains(errOut, `no table "t_zz"`) {
		t.Errorf("unknown table: exit %d, %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, "doctor", "-data", t.TempDir()); code != 1 || !strings.Contains(errOut, "no database") {
		t.Errorf("no database: exit %d, %s", code, errOut)
	}
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "cardroom.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "doctor", "-data", empty); code != 1 || !strings.Contains(errOut, "move it away") {
		t.Errorf("empty database file: exit %d, %s", code, errOut)
	}
}

// A row of the log's tail that does not decode is an integrity finding:
// the room will not open with it (store/tail.go), so the doctor says so
// even though SQLite finds the file sound.
func TestDoctorDamagedTail(t *testing.T) {
	dir := doctorRoom(t)
	db, err := sql.Open("sqlite", filepath.Join(dir, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO event_tail(id, entries) VALUES (41, x'05')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, _, code := runCLI(t, "doctor", "-data", dir)
	if code != 1 {
		t.Fatalf("exit %d with a damaged tail row, want 1:\n%s", code, out)
	}
	for _, want := range []string{"integrity: 1 problem(s)", "row 41 is damaged", "will not open"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
