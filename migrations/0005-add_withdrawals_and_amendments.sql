-- A lifecycle without dead ends (RFC 8141 section 6): the registrant may
-- withdraw a request that waits for review, or amend its text as the
-- expert asks; every replaced text is kept.

-- 'withdrawn' joins the request statuses. SQLite cannot change a CHECK
-- constraint in place, so the table is rebuilt ("Making Other Kinds Of
-- Table Schema Changes", https://sqlite.org/lang_altertable.html): urnreg
-- runs migrations with foreign keys off and checks them before it commits.
CREATE TABLE registrations_new (
    id                     INTEGER PRIMARY KEY,
    nid                    TEXT COLLATE NOCASE,
    kind                   TEXT NOT NULL CHECK (kind IN ('formal', 'informal')),
    version                INTEGER NOT NULL CHECK (version >= 1),
    status                 TEXT NOT NULL
                           CHECK (status IN ('submitted', 'changes-requested', 'approved', 'rejected',
                                             'withdrawn')),
    date                   TEXT NOT NULL,
    registrant             TEXT NOT NULL DEFAULT '',
    purpose                TEXT NOT NULL DEFAULT '',
    syntax                 TEXT NOT NULL DEFAULT '',
    assignment             TEXT NOT NULL DEFAULT '',
    security_and_privacy   TEXT NOT NULL DEFAULT '',
    interoperability       TEXT NOT NULL DEFAULT '',
    resolution             TEXT NOT NULL DEFAULT '',
    documentation          TEXT NOT NULL DEFAULT '',
    additional_information TEXT NOT NULL DEFAULT '',
    revision_information   TEXT NOT NULL DEFAULT '',
    -- fields of the older RFC 3406 template, as JSON
    legacy_fields          TEXT NOT NULL DEFAULT '{}',
    -- the registration text as received, where it came as text
    source                 TEXT,
    source_text            TEXT,
    submitted_at           TEXT NOT NULL,
    -- when it was decided or withdrawn
    decided_at             TEXT
) STRICT;

INSERT INTO registrations_new (
    id, nid, kind, version, status, date, registrant, purpose, syntax, assignment,
    security_and_privacy, interoperability, resolution, documentation, additional_information,
    revision_information, legacy_fields, source, source_text, submitted_at, decided_at)
SELECT
    id, nid, kind, version, status, date, registrant, purpose, syntax, assignment,
    security_and_privacy, interoperability, resolution, documentation, additional_information,
    revision_information, legacy_fields, source, source_text, submitted_at, decided_at
FROM registrations;

DROP TABLE registrations;
ALTER TABLE registrations_new RENAME TO registrations;
CREATE INDEX registrations_by_nid ON registrations (nid, version);
CREATE INDEX registrations_by_status ON registrations (status, id);

-- The texts a pending request had before it was amended, oldest first: the
-- registration file as filed (TOML, the `urnreg request` format, with its
-- [rules]). The request's row holds its current text.
CREATE TABLE amendments (
    id              INTEGER PRIMARY KEY,
    registration_id INTEGER NOT NULL REFERENCES registrations (id) ON DELETE CASCADE,
    body            TEXT NOT NULL,
    source          TEXT,
    -- when this text was filed, and when an amendment replaced it (UTC)
    filed_at        TEXT NOT NULL,
    replaced_at     TEXT NOT NULL
) STRICT;

CREATE INDEX amendments_by_registration ON amendments (registration_id, id);

-- Every version keeps its own rules (table `rules`, one row per
-- registration); `namespaces.rules` is a copy of those of the version in
-- force. urnreg gives the rules in force so far to the version in force
-- when it has none (in code, after seeding a new database).
