import { isUuid, ValidationError } from '@ledger/kernel';

const RULE = 'the body must be [{"op":"replace","path":"/program","value":[{"image_uuid":"<uuid>"}]}]';

/**
 * The image to load, from Cyborg's program patch. Anything but exactly that
 * patch, with one image uuid, is refused: Cyborg reads `value[0]` and
 * ignores the rest, which hides mistakes.
 */
export function imageUuidOfProgramPatch(body: unknown): string {
  if (!Array.isArray(body) || body.length !== 1) throw invalid();
  const [operation] = body as unknown[];
  if (!isPlainObject(operation) || operation.op !== 'replace' || operation.path !== '/program') throw invalid();
  if (Object.keys(operation).some((key) => !['op', 'path', 'value'].includes(key))) throw invalid();
  const value = operation.value;
  if (!Array.isArray(value) || value.length !== 1 || !isPlainObject(value[0]) || Object.keys(value[0]).join() !== 'image_uuid') throw invalid();
  const imageUuid = value[0].image_uuid;
  if (typeof imageUuid !== 'string' || !isUuid(imageUuid)) throw invalid();
  return imageUuid.toLowerCase();
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const invalid = () => new ValidationError('REQUEST.INVALID', RULE, { path: 'body' });
