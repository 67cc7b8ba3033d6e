-- `urnreg serve` (the registry as a service): who may do what over HTTP.
--
-- Tokens are never stored: only the SHA-256 of the whole token. A token is
-- `<prefix>_<selector>_<secret>`; the selector (16 hex digits, public, not
-- secret) finds the row, and the stored hash is then compared with the
-- hash of the token presented in constant time.

-- The experts (RFC 8141 section 6: the designated experts who review
-- requests). `urnreg expert add NAME` prints the token once.
CREATE TABLE experts (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    selector    TEXT NOT NULL UNIQUE,
    token_hash  BLOB NOT NULL CHECK (length(token_hash) = 32),
    created_at  TEXT NOT NULL,
    -- set by `urnreg expert remove`: the token no longer works
    removed_at  TEXT
) STRICT;

-- The registrant's token of a request filed over HTTP (shown once in the
-- answer to `POST /api/requests`): it reads the request's state and notes,
-- amends it and withdraws it.
CREATE TABLE request_tokens (
    registration_id INTEGER PRIMARY KEY REFERENCES registrations (id) ON DELETE CASCADE,
    selector        TEXT NOT NULL UNIQUE,
    token_hash      BLOB NOT NULL CHECK (length(token_hash) = 32),
    created_at      TEXT NOT NULL
) STRICT;
