DROP INDEX sessions_expires;
