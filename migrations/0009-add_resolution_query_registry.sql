-- The two sub-registries of URN resolution query parameters (the 2012 URN
-- draft, draft-ietf-urnbis-rfc2141bis-urn, section 9.2), as this registry
-- holds them: the shipped entries (`registry/_query.toml`, filled in by
-- urnreg when this migration runs) and those experts added since. What a
-- namespace's rules in force declare (the keywords it supports, its own
-- specific keywords) is not stored here: it is read from the rules, so that
-- approving a revision changes it and nothing can drift.

-- Query Keywords (section 9.2.1), in the order registered.
CREATE TABLE query_keywords (
    id        INTEGER PRIMARY KEY,
    -- case-sensitive, as directives write it (section 2.3)
    keyword   TEXT NOT NULL UNIQUE,
    purpose   TEXT NOT NULL,
    scope     TEXT NOT NULL CHECK (scope IN ('global', 'specific')),
    reference TEXT NOT NULL
) STRICT;

-- A keyword's "Supported by" list as held (section 9.2.1: {NID, reference}).
CREATE TABLE query_keyword_support (
    keyword_id INTEGER NOT NULL REFERENCES query_keywords (id) ON DELETE CASCADE,
    nid        TEXT NOT NULL COLLATE NOCASE,
    reference  TEXT NOT NULL,
    PRIMARY KEY (keyword_id, nid)
) STRICT;

-- Resolution Service Designators (section 9.2.2), in the order registered.
-- Names and aliases are matched without regard to case.
CREATE TABLE resolution_services (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL UNIQUE COLLATE NOCASE,
    purpose   TEXT NOT NULL,
    status    TEXT NOT NULL CHECK (status IN ('std', 'exp', 'provisional', 'deprecated')),
    reference TEXT NOT NULL,
    -- other names of the same service (RFC 2169's N2L for I2L), a JSON array
    aliases   TEXT NOT NULL DEFAULT '[]'
) STRICT;
