-- 10,000 more seats at the table: a query over them all (finite, unlike a view, but as long as one likes).
INSERT INTO seats (code, seat, name, kind, token_hash)
    WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 10001)
    SELECT 'ABCDEF', i, 'Bot', 'bot', NULL FROM n;
