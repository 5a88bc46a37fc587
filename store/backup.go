package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// BackupInfo describes a finished backup.
type BackupInfo struct {
	Path       string // the backup file
	Bytes      int64  // its size
	Unfinished int    // open and playing tables in it: what a restore resumes
}

// ErrBackupExists is returned when the destination of a backup exists: a
// backup never replaces a file, least of all an earlier backup.
var ErrBackupExists = errors.New("the destination exists; a backup never overwrites a file")

// Backup writes a consistent copy of the database to dest while the room
// keeps running, and checks it before it appears under that name.
//
// The copy is SQLite's VACUUM INTO on a read connection: it reads one
// snapshot (one read transaction sees every commit before it and none
// after), so the copy is consistent even while tables append moves, and it
// holds no write lock, so the writer never waits for it. The copy is
// written under a temporary name beside dest, fsynced, opened and put
// through integrity_check and the identity checks of OpenSQLite; only then
// is it linked to dest, which fails if dest exists (no overwrite, even of
// a file created meanwhile). On any error nothing is left at dest.
func (s *SQLite) Backup(ctx context.Context, dest string) (BackupInfo, error) {
	if dest == "" {
		return BackupInfo{}, errors.New("backup: no destination")
	}
	abs, err := filepath.Abs(dest)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	if same, _ := sameFile(abs, s.path); same || abs == s.path {
		return BackupInfo{}, fmt.Errorf("backup: %s is the database itself", dest)
	}
	if _, err := os.Lstat(abs); err == nil {
		return BackupInfo{}, fmt.Errorf("backup: %s: %w", dest, ErrBackupExists)
	} else if !errors.Is(err, os.ErrNotExist) {
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	dir := filepath.Dir(abs)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return BackupInfo{}, fmt.Errorf("backup: the directory of %s does not exist", dest)
	}
	var suffix [6]byte
	rand.Read(suffix[:])
	tmp := filepath.Join(dir, "."+filepath.Base(abs)+".partial-"+hex.EncodeToString(suffix[:]))
	defer os.Remove(tmp) // after the link, dest holds the file; tmp is only a name

	conn, err := s.r.Conn(ctx)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	_, err = conn.ExecContext(ctx, `VACUUM INTO ?`, tmp)
	conn.Close()
	if err != nil {
		return BackupInfo{}, fmt.Errorf("backup: VACUUM INTO: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	info, err := checkBackup(ctx, tmp)
	if err != nil {
		return BackupInfo{}, err
	}
	if err := os.Link(tmp, abs); err != nil {
		if errors.Is(err, os.ErrExist) {
			return BackupInfo{}, fmt.Errorf("backup: %s: %w", dest, ErrBackupExists)
		}
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	syncDir(dir)
	info.Path = abs
	return info, nil
}

// BackupFile backs up the room database at src to dest (Backup) from a
// process of its own: it opens src read-only, so it can run beside the
// server that has it open (`cardroom backup`).
func BackupFile(ctx context.Context, src, dest string) (BackupInfo, error) {
	st, err := OpenSQLiteReadOnly(src)
	if err != nil {
		return BackupInfo{}, err
	}
	defer st.Close()
	return st.Backup(ctx, dest)
}

// checkBackup opens a fresh copy read-only and checks it the way a restore
// would use it: a Cardroom database, sound, whose unfinished tables list.
func checkBackup(ctx context.Context, path string) (BackupInfo, error) {
	st, err := OpenSQLiteReadOnly(path)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("backup: the copy does not open: %w", err)
	}
	defer st.Close()
	found, err := st.IntegrityCheck(ctx)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("backup: integrity_check of the copy: %w", err)
	}
	if len(found) > 0 {
		return BackupInfo{}, fmt.Errorf("backup: the copy fails integrity_check: %s", strings.Join(found, "; "))
	}
	ids, err := st.UnfinishedIDs(ctx)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("backup: the copy's tables: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	return BackupInfo{Bytes: fi.Size(), Unfinished: len(ids)}, nil
}

func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if e := f.Close(); err == nil {
		err = e
	}
	return err
}

// syncDir makes a new directory entry durable (best effort: some systems
// cannot fsync a directory).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
