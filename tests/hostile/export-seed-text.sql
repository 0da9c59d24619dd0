-- A seed that is text, not a number.
UPDATE tables SET seed = 'three';
