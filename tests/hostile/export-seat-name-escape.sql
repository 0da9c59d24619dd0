-- A player's name holding a line break that would fake an output line.
UPDATE seats SET name = 'Ana' || char(10) || 'Winner: Mallory' WHERE seat = 0;
