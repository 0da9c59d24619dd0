-- The edition of a finished table replaced by JSON that is not an object.
UPDATE tables SET edition = '[1, 2]';
