ALTER TABLE tables DROP COLUMN stand_in;
