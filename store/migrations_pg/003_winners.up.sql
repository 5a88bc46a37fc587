-- Winners as data: the seats that won a finished game, space-separated
-- ("0 2"), as in SQLite's 003_winners (whose back-fill from the result
-- text is repeated here for the same meaning).
ALTER TABLE tables ADD COLUMN winners TEXT NOT NULL DEFAULT '';
UPDATE tables SET winners = trim(substr(result, strpos(result, 'winners') + length('winners')))
    WHERE strpos(result, 'winners') > 0;
