/**
 * The one statement a group commit costs: `SELECT ledger_append($1::jsonb)`.
 *
 * Input: a batch of units, `[[{ stream, expected, events: [{ id, type, recorded_at, data, metadata, content_hash }] }, …], …]`.
 * A unit is one `append` (one element) or one `appendMany` (one per stream):
 * every append of a unit is checked before any of it is written, so a unit
 * commits whole or not at all. Output, one element per unit:
 * `{ appended: [{ version, position }, …] }` (one per stream),
 * `{ stream, conflict: actual }` or `{ stream, duplicate: id }` (the first
 * refusal found). A refused unit is a result, not an exception, so the other
 * units of the batch still commit.
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
 *
 * The work is set-based where it can be: one probe for every id of the
 * batch, one for every stream's version, and one INSERT of all rows from
 * arrays; only the checks and the chain, which are sequential by nature, are
 * loops (of expressions, no statements). `plan_cache_mode = force_custom_plan` keeps
 * the `= ANY(array)` probes on their indexes: a generic plan cached while
 * the table was small would scan it sequentially forever after.
 */
export const LEDGER_APPEND_FUNCTION = `
CREATE OR REPLACE FUNCTION ledger_append(batch jsonb) RETURNS jsonb
LANGUAGE plpgsql
SET search_path FROM CURRENT
SET plan_cache_mode = force_custom_plan
AS $fn$
DECLARE
  head_position bigint;
  head_hash text;
  unit jsonb;
  item jsonb;
  event jsonb;
  stream_name text;
  expected text;
  actual integer;
  reused text;
  versions jsonb;
  recorded text[];
  next_hash text;
  refusal jsonb;
  unit_results jsonb;
  results jsonb[] := '{}';
  appended boolean := false;
  r_position bigint[] := '{}';
  r_id text[] := '{}';
  r_stream text[] := '{}';
  r_version integer[] := '{}';
  r_type text[] := '{}';
  r_recorded_at text[] := '{}';
  r_data jsonb[] := '{}';
  r_metadata jsonb[] := '{}';
  r_prev_hash text[] := '{}';
  r_hash text[] := '{}';
BEGIN
  SELECT position, hash INTO head_position, head_hash FROM ledger_head WHERE id = 1 FOR UPDATE;
  SELECT coalesce(array_agg(id), '{}') INTO recorded FROM ledger_events
   WHERE id = ANY (ARRAY(SELECT e->>'id' FROM jsonb_array_elements(batch) u, jsonb_array_elements(u) a, jsonb_array_elements(a->'events') e));
  SELECT coalesce(jsonb_object_agg(stream, v), '{}'::jsonb) INTO versions FROM (
    SELECT s.stream, (SELECT max(version) FROM ledger_events le WHERE le.stream = s.stream) AS v
      FROM (SELECT DISTINCT a->>'stream' AS stream FROM jsonb_array_elements(batch) u, jsonb_array_elements(u) a) s
  ) found WHERE v IS NOT NULL;
  FOR unit IN SELECT value FROM jsonb_array_elements(batch) LOOP
    refusal := NULL;
    FOR item IN SELECT value FROM jsonb_array_elements(unit) LOOP
      stream_name := item->>'stream';
      expected := item->>'expected';
      actual := coalesce((versions->>stream_name)::integer, 0);
      IF NOT (expected = 'any'
              OR (expected = 'no_stream' AND actual = 0)
              OR (expected = 'exists' AND actual > 0)
              OR (expected ~ '^[0-9]+$' AND actual = expected::bigint)) THEN
        refusal := jsonb_build_object('stream', stream_name, 'conflict', actual);
        EXIT;
      END IF;
      SELECT e->>'id' INTO reused FROM jsonb_array_elements(item->'events') e
       WHERE e->>'id' = ANY (recorded) OR e->>'id' = ANY (r_id) LIMIT 1;
      IF reused IS NOT NULL THEN
        refusal := jsonb_build_object('stream', stream_name, 'duplicate', reused);
        EXIT;
      END IF;
    END LOOP;
    IF refusal IS NOT NULL THEN
      results := results || refusal;
      CONTINUE;
    END IF;
    unit_results := '[]'::jsonb;
    FOR item IN SELECT value FROM jsonb_array_elements(unit) LOOP
      stream_name := item->>'stream';
      actual := coalesce((versions->>stream_name)::integer, 0);
      FOR event IN SELECT value FROM jsonb_array_elements(item->'events') LOOP
        head_position := head_position + 1;
        actual := actual + 1;
        next_hash := encode(sha256(convert_to(
          head_hash || '|' || head_position || '|' || stream_name || '|' || actual || '|' || (event->>'content_hash'),
          'UTF8')), 'hex');
        r_position := r_position || head_position;
        r_id := r_id || (event->>'id');
        r_stream := r_stream || stream_name;
        r_version := r_version || actual;
        r_type := r_type || (event->>'type');
        r_recorded_at := r_recorded_at || (event->>'recorded_at');
        r_data := r_data || (event->'data');
        r_metadata := r_metadata || (event->'metadata');
        r_prev_hash := r_prev_hash || head_hash;
        r_hash := r_hash || next_hash;
        head_hash := next_hash;
      END LOOP;
      versions := versions || jsonb_build_object(stream_name, actual);
      unit_results := unit_results || jsonb_build_object('version', actual, 'position', head_position);
    END LOOP;
    appended := true;
    results := results || jsonb_build_object('appended', unit_results);
  END LOOP;
  IF appended THEN
    INSERT INTO ledger_events (position, id, stream, version, type, recorded_at, data, metadata, prev_hash, hash)
    SELECT * FROM unnest(r_position, r_id, r_stream, r_version, r_type, r_recorded_at, r_data, r_metadata, r_prev_hash, r_hash);
    UPDATE ledger_head SET position = head_position, hash = head_hash WHERE id = 1;
    PERFORM pg_notify('ledger_appended', current_schema());
  END IF;
  RETURN to_jsonb(results);
END
$fn$;
`;
