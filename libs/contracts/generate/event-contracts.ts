import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createGenerator, type Schema } from 'ts-json-schema-generator';

/** Where the ledger's event types are declared, relative to the repository root. */
const EVENT_SOURCES = 'libs/*/src/domain/*.events.ts';

/** One generated file of the contracts package: its path from the repository root and its text. */
export interface ContractFile {
  readonly path: string;
  readonly text: string;
}

interface EventContract {
  readonly type: string;
  readonly context: string;
  readonly typeName: string;
  readonly schemaVersion: number;
  readonly schema: Schema;
}

/**
 * The contracts package's generated files, from the events' TypeScript types
 * (`DomainEvent<'context.Name', Data>` in libs/<context>/src/domain/*.events.ts):
 * one JSON Schema file per context and the catalog of event types. The
 * drift spec regenerates them and compares, so they cannot fall behind.
 */
export function generateEventContracts(root: string): ContractFile[] {
  const contracts = eventContracts(root);
  const contexts = [...new Set(contracts.map((contract) => contract.context))].sort();
  return [
    ...contexts.map((context) => ({ path: `libs/contracts/schemas/${context}.events.schema.json`, text: contextSchema(context, contracts) })),
    { path: 'libs/contracts/src/event-catalog.generated.ts', text: catalogSource(contracts) },
  ];
}

function eventContracts(root: string): EventContract[] {
  const options = { path: join(root, EVENT_SOURCES), tsconfig: join(root, 'tsconfig.json'), skipTypeCheck: true, topRef: false, jsDoc: 'extended' as const };
  // Exposed definitions name every exported type; the event types are those that are a DomainEvent<…>.
  const catalog = createGenerator({ ...options, expose: 'export', type: '*' }).createSchema('*');
  const inline = createGenerator({ ...options, expose: 'none' });
  const versions = schemaVersions(root);
  const contracts: EventContract[] = [];
  for (const [typeName, definition] of Object.entries(catalog.definitions ?? {})) {
    if (typeof definition !== 'object' || !String(definition.$ref ?? '').startsWith('#/definitions/DomainEvent%3C')) continue;
    const schema = inline.createSchema(typeName);
    const type = (schema.properties?.type as Schema | undefined)?.const;
    if (typeof type !== 'string') continue; // a union of events, not one event
    delete schema.$schema;
    contracts.push({ type, context: type.slice(0, type.indexOf('.')), typeName, schemaVersion: versions[type] ?? 1, schema });
  }
  return contracts.sort((a, b) => a.type.localeCompare(b.type));
}

/** Every `*_EVENT_SCHEMA_VERSIONS` map the events files export; a type none lists is at version 1 (what the command handler records). */
function schemaVersions(root: string): Record<string, number> {
  const versions: Record<string, number> = {};
  for (const lib of readdirSync(join(root, 'libs'))) {
    const domain = join(root, 'libs', lib, 'src', 'domain');
    if (!existsSync(domain)) continue;
    const files = readdirSync(domain, { withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.events.ts'));
    for (const file of files) {
      // Required beside this file (compiled in dist/, TypeScript under Jest), not from the sources' root.
      const exported = require(join(__dirname, '..', '..', lib, 'src', 'domain', file.name.replace(/\.ts$/, ''))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exported)) if (name.endsWith('_EVENT_SCHEMA_VERSIONS')) Object.assign(versions, value);
    }
  }
  return versions;
}

function contextSchema(context: string, contracts: readonly EventContract[]): string {
  const own = contracts.filter((contract) => contract.context === context);
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `urn:accelerator-ledger:contracts:${context}.events`,
    title: `The ${context} context's events: type and data of a message value (docs/kafka.md)`,
    description: 'Generated from the events\' TypeScript types by libs/contracts/generate; do not edit.',
    oneOf: own.map((contract) => ({ $ref: `#/definitions/${contract.type}` })),
    definitions: Object.fromEntries(own.map((contract) => [contract.type, { ...contract.schema, 'x-schema-version': contract.schemaVersion }])),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

function catalogSource(contracts: readonly EventContract[]): string {
  const entries = contracts.map((contract) => `  '${contract.type}': { context: '${contract.context}', schemaVersion: ${contract.schemaVersion} },`);
  return [
    '// Generated from the events\' TypeScript types by libs/contracts/generate; do not edit.',
    '',
    '/** Every event type the ledger publishes: its context (its topic) and the current version of its data\'s schema. */',
    'export const LEDGER_EVENT_CATALOG = {',
    ...entries,
    '} as const;',
    '',
    'export type LedgerEventType = keyof typeof LEDGER_EVENT_CATALOG;',
    '',
  ].join('\n');
}
