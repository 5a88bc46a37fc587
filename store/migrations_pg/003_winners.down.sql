ALTER TABLE tables DROP COLUMN winners;
