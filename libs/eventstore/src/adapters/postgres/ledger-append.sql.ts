/**
 * The one statement an append batch costs: `SELECT ledger_append($1::jsonb)`.
 *
 * Input: `[{ stream, expected, events: [{ id, type, recorded_at, data, metadata, content_hash }] }]`.
 * Output, one element per append: `{ version, position }`, `{ conflict: actual }`
 * or `{ duplicate: id }`. A failed append is a result, not an exception, so
 * the other appends of the batch still commit.
 *
 * Locking the single head row serializes writers from every replica:
 * positions are handed out in commit order, gap-free, and the chain is one
 * global chain. The hash is `chainHash` of hash-chain.ts, spelled in SQL;
 * the writer computed each content hash before sending. `pg_notify` is
 * delivered at commit, and only if the transaction commits.
 *
 * Streams' versions come from the (stream, version) index: with the head
 * locked nobody else can be appending, so there is no separate streams
 * table to keep in step. `SET search_path FROM CURRENT` pins the schema the
 * function was created in, whatever the caller's path.
 */
export const LEDGER_APPEND_FUNCTION = `
CREATE OR REPLACE FUNCTION ledger_append(batch jsonb) RETURNS jsonb
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $fn$
DECLARE
  head_position bigint;
  head_hash text;
  item jsonb;
  event jsonb;
  stream_name text;
  expected text;
  actual integer;
  reused text;
  next_hash text;
  results jsonb := '[]'::jsonb;
  appended boolean := false;
BEGIN
  SELECT position, hash INTO head_position, head_hash FROM ledger_head WHERE id = 1 FOR UPDATE;
  FOR item IN SELECT value FROM jsonb_array_elements(batch) LOOP
    stream_name := item->>'stream';
    expected := item->>'expected';
    SELECT coalesce(max(version), 0) INTO actual FROM ledger_events WHERE stream = stream_name;
    IF NOT (expected = 'any'
            OR (expected = 'no_stream' AND actual = 0)
            OR (expected = 'exists' AND actual > 0)
            OR (expected ~ '^[0-9]+$' AND actual = expected::bigint)) THEN
      results := results || jsonb_build_array(jsonb_build_object('conflict', actual));
      CONTINUE;
    END IF;
    -- One equality probe per id: plpgsql caches a generic plan, and for a set of ids
    -- planned while the table was small that plan is a sequential scan forever after.
    reused := NULL;
    FOR event IN SELECT value FROM jsonb_array_elements(item->'events') LOOP
      PERFORM 1 FROM ledger_events WHERE id = event->>'id';
      IF FOUND THEN
        reused := event->>'id';
        EXIT;
      END IF;
    END LOOP;
    IF reused IS NOT NULL THEN
      results := results || jsonb_build_array(jsonb_build_object('duplicate', reused));
      CONTINUE;
    END IF;
    FOR event IN SELECT value FROM jsonb_array_elements(item->'events') LOOP
      head_position := head_position + 1;
      actual := actual + 1;
      next_hash := encode(sha256(convert_to(
        head_hash || '|' || head_position || '|' || stream_name || '|' || actual || '|' || (event->>'content_hash'),
        'UTF8')), 'hex');
      INSERT INTO ledger_events (position, id, stream, version, type, recorded_at, data, metadata, prev_hash, hash)
      VALUES (head_position, event->>'id', stream_name, actual, event->>'type', event->>'recorded_at',
              event->'data', event->'metadata', head_hash, next_hash);
      head_hash := next_hash;
    END LOOP;
    appended := true;
    results := results || jsonb_build_array(jsonb_build_object('version', actual, 'position', head_position));
  END LOOP;
  IF appended THEN
    UPDATE ledger_head SET position = head_position, hash = head_hash WHERE id = 1;
    PERFORM pg_notify('ledger_appended', current_schema());
  END IF;
  RETURN results;
END
$fn$;
`;
