-- numeric(5,2) lets a test send a value that passes validation but that PostgreSQL refuses (SQLSTATE 22003).
ALTER TABLE notes ADD COLUMN weight numeric(5, 2);
