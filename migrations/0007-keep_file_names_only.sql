-- No local path leaves the machine: a version filed from the command line
-- kept as its `source` the path the filer typed (absolute paths included),
-- which the JSON snapshot and the API served to anyone. Filed versions
-- (those without a registration text of their own: the shipped records keep
-- theirs, whose source is a reference such as an RFC or an IANA address)
-- and the texts they replaced keep the file name only, after the last '/'
-- or '\'. `rtrim(s, replace(s, '/', ''))` is `s` up to its last '/'.

UPDATE registrations
SET source = substr(source, length(rtrim(source, replace(source, '/', ''))) + 1)
WHERE source_text IS NULL AND source LIKE '%/%';

UPDATE registrations
SET source = substr(source, length(rtrim(source, replace(source, '\', ''))) + 1)
WHERE source_text IS NULL AND source LIKE '%\%';

UPDATE amendments
SET source = substr(source, length(rtrim(source, replace(source, '/', ''))) + 1)
WHERE source LIKE '%/%';

UPDATE amendments
SET source = substr(source, length(rtrim(source, replace(source, '\', ''))) + 1)
WHERE source LIKE '%\%';

-- A path that ended in a separator leaves nothing: say where it came from.
UPDATE registrations SET source = 'file' WHERE source_text IS NULL AND source = '';
UPDATE amendments SET source = 'file' WHERE source = '';
