-- What a snapshot needs to give the registry back as shipped (urnreg
-- export): the IANA record of each shipped namespace in full (registration
-- text, the texts it refers to), and the registry's own metadata.

-- The shipped `registry/<nid>.toml` record as JSON, without its rules (the
-- rules in force are in `rules`); NULL for namespaces registered here.
ALTER TABLE namespaces ADD COLUMN iana TEXT;

-- `registry/_registry.toml` as JSON: title, notes, sub-registries.
CREATE TABLE registry_meta (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL
) STRICT;
