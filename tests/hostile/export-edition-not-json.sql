-- The edition of a finished table replaced by text that is not JSON.
UPDATE tables SET edition = 'edition: australia';
