-- An edition of 17 MB, more than any edition (1 MB) and than an export reads (16 MB).
UPDATE tables SET edition = zeroblob(17000000);
