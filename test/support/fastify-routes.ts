/**
 * The routes a Fastify instance serves, as `METHOD /path` with every path
 * parameter written `{}`, read from `printRoutes({ commonPrefix: false })`:
 * a tree whose lines are `<indent>├── <segment> (<METHODS>)`, each segment
 * continuing its parent's path.
 */
export function servedRoutes(printed: string): string[] {
  const parents: string[] = [];
  const routes: string[] = [];
  for (const line of printed.split('\n')) {
    const match = /^(.*?)(?:├── |└── )(\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    const parent = parents[depth - 1] ?? '';
    const path = joinSegment(parent, match[2]);
    parents[depth] = path;
    parents.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) routes.push(`${method} ${normalisePath(path)}`);
  }
  return routes;
}

/** `/v2/things/{uuid}` and `/v2/things/:uuid|:name` alike become `/v2/things/{}`. */
export const normalisePath = (path: string): string => path.replace(/\{[^}]+\}/g, '{}').replace(/:[^/|]+(\|:[^/]+)*/g, '{}');

const joinSegment = (parent: string, segment: string): string =>
  parent === '' ? segment : parent.endsWith('/') || segment.startsWith('/') ? `${parent}${segment}` : `${parent}/${segment}`;
