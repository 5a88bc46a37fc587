-- Undoes 001_init: drops the whole schema (for tests: no room ever runs it).
DROP TABLE events;
DROP INDEX seats_player;
DROP TABLE seats;
DROP INDEX tables_status;
DROP TABLE tables;
DROP TABLE sessions;
