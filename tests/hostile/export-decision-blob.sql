-- A decision whose answer is bytes, not a card's letter.
UPDATE decisions SET answer = x'00ff' WHERE number = 0;
