-- The seats replaced by a view that never ends: a recursive query without a stop.
DROP TABLE seats;
CREATE VIEW seats (code, seat, name, kind, token_hash) AS
    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n)
    SELECT 'ABCDEF', i, 'Ana', 'player', NULL FROM n;
