-- Undoes 001_init: drops the whole schema (for tests: no room ever runs it).
DROP TABLE events;
DROP TABLE seats;
DROP TABLE tables;
DROP TABLE sessions;
