-- The namespace-specific rules in force (TOML, the `[rules]` format), copied
-- from the approved registration or from the shipped registry.
ALTER TABLE namespaces ADD COLUMN rules TEXT;
