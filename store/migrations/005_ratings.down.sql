-- Undoes 005_ratings.
DROP INDEX rating_history_player;
DROP TABLE rating_history;
DROP TABLE rated_games;
DROP INDEX ratings_board;
DROP TABLE ratings;
DROP INDEX tables_rated;
ALTER TABLE tables DROP COLUMN rated;
