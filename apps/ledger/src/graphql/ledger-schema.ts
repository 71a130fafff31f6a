import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { GRAPHQL_RESOLVERS } from './graphql-resolvers';
import { GRAPHQL_SCHEMA_OPTIONS } from './graphql-schema.options';

/** The committed schema, relative to the repository's root (where npm runs scripts and Jest runs). */
export const SCHEMA_FILE = join('apps', 'ledger', 'src', 'graphql', 'schema.graphql');

const HEADER = '# The schema of /graphql, generated from the resolvers by `npm run graphql:schema` (docs/graphql.md). Do not edit.\n\n';

/** The SDL the ledger serves at /graphql: built from the same resolvers and options as at start-up, sorted. */
export async function printLedgerSchema(): Promise<string> {
  const app = await NestFactory.createApplicationContext(GraphQLSchemaBuilderModule, { logger: false });
  try {
    const schema = await app.get(GraphQLSchemaFactory).create([...GRAPHQL_RESOLVERS], { ...GRAPHQL_SCHEMA_OPTIONS.buildSchemaOptions });
    return `${HEADER}${printSchema(lexicographicSortSchema(schema))}\n`;
  } finally {
    await app.close();
  }
}
