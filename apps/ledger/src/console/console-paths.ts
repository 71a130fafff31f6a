/** Where the console is served, and its pages that other pages link to (/docs, the OpenAPI document). */
export const CONSOLE_PATH = '/console';

/** The GraphQL explorer (apps/ledger/console/graphql.html). */
export const GRAPHQL_EXPLORER_PATH = `${CONSOLE_PATH}/graphql.html`;
