-- The registry of URN namespaces (RFC 8141 sections 5 and 6).

-- One row per NID ever registered, formal (section 5.1) or informal (5.2).
CREATE TABLE namespaces (
    nid             TEXT PRIMARY KEY COLLATE NOCASE,
    kind            TEXT NOT NULL CHECK (kind IN ('formal', 'informal')),
    status          TEXT NOT NULL CHECK (status IN ('registered', 'withdrawn')),
    -- when the NID was registered, as the registry records it (may be unknown)
    date            TEXT,
    updated         TEXT,
    -- the approved version in force (NULL when no registration text is held)
    current_version INTEGER,
    -- the IANA record's facts (template link, references, contacts) as JSON
    record          TEXT NOT NULL DEFAULT '{}'
) STRICT;

-- Every version of every registration, requested, approved or not
-- (RFC 8141 section 6 and Appendix A). A request for an informal NID has
-- no NID until it is approved.
CREATE TABLE registrations (
    id                     INTEGER PRIMARY KEY,
    nid                    TEXT COLLATE NOCASE,
    kind                   TEXT NOT NULL CHECK (kind IN ('formal', 'informal')),
    version                INTEGER NOT NULL CHECK (version >= 1),
    status                 TEXT NOT NULL
                           CHECK (status IN ('submitted', 'changes-requested', 'approved', 'rejected')),
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
    decided_at             TEXT
) STRICT;

CREATE INDEX registrations_by_nid ON registrations (nid, version);

-- Expert review decisions (section 6).
CREATE TABLE reviews (
    id              INTEGER PRIMARY KEY,
    registration_id INTEGER NOT NULL REFERENCES registrations (id),
    decision        TEXT NOT NULL CHECK (decision IN ('approve', 'reject', 'ask-changes')),
    note            TEXT NOT NULL,
    actor           TEXT NOT NULL,
    at              TEXT NOT NULL
) STRICT;

-- Namespace-specific rules (NSS syntax, equivalence), per registration.
CREATE TABLE rules (
    registration_id INTEGER PRIMARY KEY REFERENCES registrations (id),
    body            TEXT NOT NULL
) STRICT;

-- The highest informal number ever assigned (section 5.2): never reused.
CREATE TABLE informal_sequence (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    last INTEGER NOT NULL CHECK (last >= 0)
) STRICT;

INSERT INTO informal_sequence (id, last) VALUES (1, 0);
