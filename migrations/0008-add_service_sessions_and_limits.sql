-- `urnreg serve` keeps its browser sessions and its filing rate limits in
-- the database, so that a restart keeps experts signed in and limits in
-- force, and two `urnreg serve` processes on one database agree.

-- A signed-in browser. Only the SHA-256 of the session id (the cookie's
-- value) is stored. A session is an expert's or one request's registrant's.
CREATE TABLE service_sessions (
    id_hash     BLOB PRIMARY KEY CHECK (length(id_hash) = 32),
    expert_id   INTEGER REFERENCES experts (id) ON DELETE CASCADE,
    request_id  INTEGER REFERENCES registrations (id) ON DELETE CASCADE,
    -- the CSRF token every form of the session carries
    csrf        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    -- Unix seconds (UTC)
    expires_at  INTEGER NOT NULL,
    CHECK ((expert_id IS NULL) <> (request_id IS NULL))
) STRICT;

CREATE INDEX service_sessions_by_expiry ON service_sessions (expires_at);
CREATE INDEX service_sessions_by_expert ON service_sessions (expert_id);

-- One token bucket per client address for filing (POST /api/requests and
-- the filing form): `tokens` left at `updated_at` (Unix seconds, with
-- fractions).
CREATE TABLE filing_limits (
    client      TEXT PRIMARY KEY,
    tokens      REAL NOT NULL,
    updated_at  REAL NOT NULL
) STRICT;
