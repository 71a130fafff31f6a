import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { getMetadataStorage } from 'class-validator';
import fc from 'fast-check';
import { canonicalJson } from '@ledger/kernel';
import { HeartbeatRequest } from '../../apps/ledger/src/agents/heartbeat.request.dto';
import { compileDtoCheck } from '../../apps/ledger/src/http/compiled-dto-check';
import { REQUEST_VALIDATION, requestValidationPipe } from '../../apps/ledger/src/http/validation.pipe';
import { HostReportRequest } from '../../apps/ledger/src/inventory/host-report.request.dto';
import { cleanSchemaArbitrary, hostileValue, type Schema, schemaArbitrary } from '../support/fuzz-schema';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

/** Bodies per DTO: half of them as the schema describes, half with hostile values mixed in. */
const BODIES_PER_DTO = Number(process.env.FUZZ_BODIES ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly code: unknown; readonly errors: unknown };

/**
 * The compiled body checks (apps/ledger/src/http/compiled-dto-check.ts)
 * against Nest's own ValidationPipe with the ledger's options: for every
 * body DTO of every route of both APIs, bodies generated from its OpenAPI
 * schema (valid ones and hostile ones) must get the same verdict, the
 * same errors in the same order, and on success the same JSON.
 */
describe('compiled body validation gives what class-transformer and class-validator give', () => {
  let ledger: TestLedger;
  let bodyDtos: Function[];
  let documents: Schema[];

  beforeAll(async () => {
    ledger = await startTestLedger({ LEDGER_LOG_LEVEL: 'error' });
    documents = [(await ledger.request('GET', '/api/v1/openapi.json')).body, (await ledger.request('GET', '/v2/openapi.json')).body];
    bodyDtos = routeBodyDtos(ledger);
  });
  afterAll(async () => {
    await ledger?.close();
  });

  it("compiles the agents' hot-path bodies", () => {
    const compiled = bodyDtos.filter((dto) => compileDtoCheck(dto) !== undefined);
    expect(compiled).toEqual(expect.arrayContaining([HeartbeatRequest, HostReportRequest]));
    process.stderr.write(
      `compiled ${compiled.length} of ${bodyDtos.length} body DTOs; through the pipe: ${bodyDtos.filter((dto) => !compiled.includes(dto)).map((dto) => dto.name).join(', ') || 'none'}\n`,
    );
  });

  it(`answers ${BODIES_PER_DTO} generated bodies per DTO (seed ${SEED}) as Nest's pipe does`, async () => {
    const reference = new ValidationPipe(REQUEST_VALIDATION);
    const pipe = requestValidationPipe();
    const mismatches: string[] = [];
    let refused = 0;
    for (const dto of bodyDtos.filter((candidate) => compileDtoCheck(candidate) !== undefined)) {
      const bodies = fc.sample(bodyArbitrary(dto, documents), { seed: SEED, numRuns: BODIES_PER_DTO });
      for (const body of bodies) {
        const text = JSON.stringify(body);
        if (text === undefined || !text.startsWith('{')) continue;
        const metadata: ArgumentMetadata = { type: 'body', metatype: dto as ArgumentMetadata['metatype'] };
        const [expected, actual] = [await outcome(reference, JSON.parse(text), metadata), await outcome(pipe, JSON.parse(text), metadata)];
        if (!expected.ok) refused++;
        // Member order aside: an instance has its declared fields first.
        if (canonicalJson(actual) !== canonicalJson(expected)) {
          mismatches.push(`${dto.name} ${text.slice(0, 300)}\n  pipe:     ${JSON.stringify(expected).slice(0, 400)}\n  compiled: ${JSON.stringify(actual).slice(0, 400)}`);
        }
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // The generated bodies reach both verdicts, so both paths were compared.
    expect(refused).toBeGreaterThan(0);
  }, 60_000);

  it("answers generated heartbeats on the lean route (agents/lean-agent-routes.ts) with the pipe's verdicts", async () => {
    const reference = new ValidationPipe(REQUEST_VALIDATION);
    const token = ledger.token({ user: 'agent:lean-1', project: 'service', roles: ['agent'], host: 'lean-1' });
    const mismatches: string[] = [];
    const bodies = fc.sample(bodyArbitrary(HeartbeatRequest, documents), { seed: SEED, numRuns: 60 });
    for (const body of bodies) {
      const text = JSON.stringify(body);
      // A "__proto__" member is refused by the body parser (REQUEST.MALFORMED_JSON) before any route runs.
      if (text === undefined || !text.startsWith('{') || text.includes('"__proto__"')) continue;
      const expected = await outcome(reference, JSON.parse(text), bodyOf(HeartbeatRequest));
      const answer = await ledger.request('POST', '/api/v1/hosts/lean-1/heartbeat', { token, rawBody: text, headers: { 'content-type': 'application/json' } });
      // A valid body reaches the command (which refuses a host that never reported): any answer but the pipe's refusal.
      const actual = answer.body?.code === 'REQUEST.INVALID' ? { ok: false, code: answer.status === 400 && answer.body.code, errors: answer.body.errors } : { ok: true };
      const wanted = expected.ok ? { ok: true } : expected;
      if (canonicalJson(actual) !== canonicalJson(wanted)) mismatches.push(`${text.slice(0, 300)}\n  pipe: ${JSON.stringify(wanted).slice(0, 300)}\n  lean: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  }, 60_000);

  it('refuses a heartbeat with an unknown member, a bad nested device and a non-object device, as the pipe words it', async () => {
    const body = { agentVersion: '1', intervalSeconds: 15, extra: 1, devices: [{ pciAddress: 'nope', health: 'ok' }, 7] };
    const [expected, actual] = [await outcome(new ValidationPipe(REQUEST_VALIDATION), structuredClone(body), bodyOf(HeartbeatRequest)), await outcome(requestValidationPipe(), body, bodyOf(HeartbeatRequest))];
    expect(actual).toEqual(expected);
    expect(actual).toMatchObject({
      ok: false,
      code: 'REQUEST.INVALID',
      errors: [
        { path: 'extra', problem: 'property extra should not exist' },
        { path: 'devices.0.pciAddress', problem: 'pciAddress must be a PCI address like 0000:3b:00.0' },
        { path: 'devices.1', problem: 'each value in nested property devices must be either object or array' },
      ],
    });
  });
});

/**
 * Bodies for `dto`: from its OpenAPI schema where a document has one (as described, and with hostile values
 * mixed in), and always objects of its own members, a stranger and names the pipe drops, each any hostile value.
 */
function bodyArbitrary(dto: Function, documents: Schema[]): fc.Arbitrary<unknown> {
  const members = Object.keys(getMetadataStorage().groupByPropertyName(getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false)));
  const loose = fc.dictionary(fc.constantFrom(...members, 'stranger', '__proto__', 'constructor', 'prototype', 'toString'), hostileValue, { maxKeys: members.length + 1 });
  const document = documents.find((candidate) => candidate.components?.schemas?.[dto.name]);
  if (document === undefined) return loose;
  const schema = { $ref: `#/components/schemas/${dto.name}` };
  return fc.oneof(cleanSchemaArbitrary(schema, document), schemaArbitrary(schema, document), loose);
}

function bodyOf(dto: Function): ArgumentMetadata {
  return { type: 'body', metatype: dto as ArgumentMetadata['metatype'] };
}

async function outcome(pipe: ValidationPipe, value: unknown, metadata: ArgumentMetadata): Promise<Outcome> {
  try {
    return { ok: true, value: JSON.parse(JSON.stringify(await pipe.transform(value, metadata))) };
  } catch (error) {
    const { code, facts } = error as { code?: unknown; facts?: { errors?: unknown } };
    return { ok: false, code, errors: facts?.errors };
  }
}

/** The DTO classes of every @Body() parameter of every controller the app mounted. */
function routeBodyDtos(ledger: TestLedger): Function[] {
  const dtos = new Set<Function>();
  for (const module of ledger.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Function | null;
      if (!controller) continue;
      for (const method of Object.getOwnPropertyNames(controller.prototype)) {
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number; data?: unknown }>;
        const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, method) ?? []) as Function[];
        for (const [key, arg] of Object.entries(args)) {
          const type = types[arg.index];
          if (Number(key.split(':')[0]) === RouteParamtypes.BODY && arg.data === undefined && type && ![Object, String, Array].includes(type as ObjectConstructor)) dtos.add(type);
        }
      }
    }
  }
  return [...dtos];
}
