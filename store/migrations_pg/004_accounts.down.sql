DROP INDEX sessions_player;
DROP TABLE accounts;
