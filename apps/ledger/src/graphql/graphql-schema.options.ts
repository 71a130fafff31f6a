/** Options the schema is built with, both at start-up and when `npm run graphql:schema` writes schema.graphql. */
export const GRAPHQL_SCHEMA_OPTIONS = {
  sortSchema: true,
  buildSchemaOptions: { noDuplicatedFields: true },
} as const;
