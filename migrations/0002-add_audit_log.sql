-- Who changed what, and when: one row per change.
CREATE TABLE audit_log (
    id              INTEGER PRIMARY KEY,
    at              TEXT NOT NULL,
    actor           TEXT NOT NULL,
    action          TEXT NOT NULL,
    nid             TEXT COLLATE NOCASE,
    registration_id INTEGER REFERENCES registrations (id),
    detail          TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE INDEX audit_log_by_nid ON audit_log (nid, id);
