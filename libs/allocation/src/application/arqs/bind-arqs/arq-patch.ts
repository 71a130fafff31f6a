import { ForbiddenError, isUuid, LedgerError } from '@ledger/kernel';
import { ArqInvalidError } from '../../../domain/arq.errors';

/** Requests one PATCH may bind or unbind: Nova sends one instance's, a handful. */
export const MAX_ARQS_PER_PATCH = 64;

const BIND_PATHS = ['/hostname', '/device_rp_uuid', '/instance_uuid'] as const;
const PROJECT_PATH = '/project_id';
const HOSTNAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;
const PROJECT_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export interface BindRequest {
  readonly uuid: string;
  readonly hostname: string;
  readonly deviceRpUuid: string;
  readonly instanceUuid: string;
  /** Only an admin at microversion 2.1+ may set it; otherwise the request keeps its project. */
  readonly projectId?: string;
}

export type ArqPatch = { readonly kind: 'bind'; readonly binds: readonly BindRequest[] } | { readonly kind: 'unbind'; readonly uuids: readonly string[] };

export interface PatchCaller {
  /** The negotiated microversion's minor number (2.N). */
  readonly microversion: number;
  readonly isAdmin: boolean;
}

/**
 * Reads Cyborg's bind / unbind body, `{"<arq uuid>": [json-patch ops]}`
 * (CYBORG-V2.md §1.5), refusing everything Cyborg would refuse and what it
 * would let through to a 500: every op is `add` (bind) or every op is
 * `remove` (unbind); paths are the three bind fields, plus `/project_id`
 * from 2.1 for admins; a bind names all three.
 */
export function parseArqPatch(body: unknown, caller: PatchCaller): ArqPatch {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ArqInvalidError('body', 'The body must be an object mapping accelerator request uuids to JSON patches');
  }
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length === 0) throw new ArqInvalidError('body', 'The patch names no accelerator request');
  if (entries.length > MAX_ARQS_PER_PATCH) {
    throw new ArqInvalidError('body', `A patch binds or unbinds at most ${MAX_ARQS_PER_PATCH} accelerator requests, not ${entries.length}`);
  }
  const patches = entries.map(([uuid, ops]) => ({ uuid: arqUuidOf(uuid), ops: opsOf(uuid, ops, caller) }));
  const kinds = new Set(patches.flatMap((patch) => patch.ops.map((op) => op.op)));
  if (kinds.size > 1) throw new ArqInvalidError('body', "Couldn't apply patch. Reason: a patch must be all 'add' (bind) or all 'remove' (unbind)");
  if (kinds.has('remove')) return { kind: 'unbind', uuids: patches.map((patch) => patch.uuid) };
  return { kind: 'bind', binds: patches.map(({ uuid, ops }) => bindOf(uuid, ops)) };
}

interface PatchOp {
  readonly op: 'add' | 'remove';
  readonly path: string;
  readonly value?: string;
}

function arqUuidOf(key: string): string {
  if (!isUuid(key)) throw new ArqInvalidError(key, `Couldn't apply patch. Reason: ${excerpt(key)} is not an accelerator request uuid`);
  return key.toLowerCase();
}

function opsOf(uuid: string, ops: unknown, caller: PatchCaller): PatchOp[] {
  if (!Array.isArray(ops) || ops.length === 0) throw new ArqInvalidError(uuid, `The patch of ${uuid} must be a non-empty list of operations`);
  const seen = new Set<string>();
  return ops.map((op, index) => {
    const path = `${uuid}[${index}]`;
    if (op === null || typeof op !== 'object' || Array.isArray(op)) throw new ArqInvalidError(path, `Operation ${index} of ${uuid} must be an object`);
    const { op: name, path: target, value, ...rest } = op as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) throw new ArqInvalidError(path, `Operation ${index} of ${uuid} has unknown members: ${extra.join(', ')}`);
    if (name !== 'add' && name !== 'remove') throw new ArqInvalidError(path, `Operation ${index} of ${uuid}: op must be 'add' or 'remove'`);
    if (typeof target !== 'string' || !(BIND_PATHS as readonly string[]).concat(PROJECT_PATH).includes(target)) {
      throw new ArqInvalidError(path, `Couldn't apply patch. Reason: unknown path ${excerpt(target)}; allowed: ${BIND_PATHS.join(', ')}, ${PROJECT_PATH}`);
    }
    if (target === PROJECT_PATH) checkProjectPath(caller);
    if (seen.has(target)) throw new ArqInvalidError(path, `The patch of ${uuid} names ${target} twice`);
    seen.add(target);
    if (name === 'remove') {
      if (value !== undefined) throw new ArqInvalidError(path, `A 'remove' operation takes no value (${target})`);
      return { op: name, path: target };
    }
    if (typeof value !== 'string') throw new ArqInvalidError(path, `The value of ${target} must be a string`);
    return { op: name, path: target, value };
  });
}

function checkProjectPath(caller: PatchCaller): void {
  if (caller.microversion < 1) {
    throw new LedgerError('V2.VERSION_NOT_ACCEPTABLE', 406, '/project_id in a patch needs microversion 2.1 or later');
  }
  if (!caller.isAdmin) throw new ForbiddenError('AUTH.ROLE_REQUIRED', 'Only an admin may set /project_id in a patch', { roles: ['admin'] });
}

function bindOf(uuid: string, ops: readonly PatchOp[]): BindRequest {
  const value = (path: string) => ops.find((op) => op.path === path)?.value;
  const absent = BIND_PATHS.filter((path) => value(path) === undefined).map((path) => path.slice(1));
  if (absent.length > 0) throw new ArqInvalidError(uuid, `Couldn't apply patch. Reason: Fields absent in patch ${absent.join(',')}`);
  const hostname = value('/hostname')!;
  if (!HOSTNAME.test(hostname)) throw new ArqInvalidError(`${uuid}/hostname`, `hostname ${excerpt(hostname)} is not a valid host name`);
  const deviceRpUuid = value('/device_rp_uuid')!;
  if (!isUuid(deviceRpUuid)) throw new ArqInvalidError(`${uuid}/device_rp_uuid`, `device_rp_uuid ${excerpt(deviceRpUuid)} is not a uuid`);
  const instanceUuid = value('/instance_uuid')!;
  if (!isUuid(instanceUuid)) throw new ArqInvalidError(`${uuid}/instance_uuid`, `instance_uuid ${excerpt(instanceUuid)} is not a uuid`);
  const projectId = value(PROJECT_PATH);
  if (projectId !== undefined && !PROJECT_ID.test(projectId)) throw new ArqInvalidError(`${uuid}/project_id`, `project_id ${excerpt(projectId)} is not valid`);
  return {
    uuid,
    hostname,
    deviceRpUuid: deviceRpUuid.toLowerCase(),
    instanceUuid: instanceUuid.toLowerCase(),
    ...(projectId !== undefined ? { projectId } : {}),
  };
}

function excerpt(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}
