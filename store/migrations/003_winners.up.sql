-- Winners as data: the seats that won a finished game, space-separated
-- ("0 2"), so nothing parses them back out of the result text. Finished
-- games of earlier versions get theirs from that text once, here.
ALTER TABLE tables ADD COLUMN winners TEXT NOT NULL DEFAULT '';
UPDATE tables SET winners = trim(substr(result, instr(result, 'winners') + length('winners')))
    WHERE instr(result, 'winners') > 0;
