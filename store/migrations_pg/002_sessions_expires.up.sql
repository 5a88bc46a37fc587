-- Expired sessions are purged in bulk (PurgeSessions): find them by expiry
-- without scanning every session.
CREATE INDEX sessions_expires ON sessions(expires);
