DROP TABLE rating_history;
DROP TABLE rated_games;
DROP TABLE ratings;
DROP INDEX tables_rated;
ALTER TABLE tables DROP COLUMN rated;
