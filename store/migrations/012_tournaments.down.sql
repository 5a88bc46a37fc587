DROP TABLE tournament_games;
DROP TABLE tournament_entrants;
DROP INDEX tournaments_status;
DROP TABLE tournaments;
