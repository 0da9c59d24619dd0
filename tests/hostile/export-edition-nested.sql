-- The edition of a finished table replaced by 100,000 nested '[': Python's JSON reader recurses once a level.
UPDATE tables SET edition = replace(hex(zeroblob(100000)), '00', '[');
