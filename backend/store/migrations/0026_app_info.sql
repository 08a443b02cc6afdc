-- Which Errand last opened the file for writing (key 'written_by'), so an
-- older Errand that must refuse the file can say which version made it.
CREATE TABLE app_info (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
