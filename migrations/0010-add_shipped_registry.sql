-- Which built-in registry the database's shipped namespaces were last
-- brought up to: the fingerprint of urnreg's embedded `registry/` records
-- (see build.rs), written by `urnreg init`, by `urnreg update`, and by an
-- import or a migration that leaves every shipped namespace as the binary
-- ships it. A reading command compares it with its own binary's and, when
-- they differ, says that `urnreg update` would bring newer records in. No
-- row: behind (a database an earlier urnreg made, whose shipped records
-- differ from this binary's, when this migration ran).
CREATE TABLE shipped_registry (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    fingerprint TEXT NOT NULL,
    -- the urnreg version that recorded it, and when (UTC)
    urnreg      TEXT NOT NULL,
    at          TEXT NOT NULL
) STRICT;
