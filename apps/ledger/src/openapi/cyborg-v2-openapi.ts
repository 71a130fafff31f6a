import { formatMicroversion, MAX_MICROVERSION, MIN_MICROVERSION } from '../cyborg-v2/microversion';
import { CYBORG_V2_PATHS } from './cyborg-v2-paths';
import { CYBORG_V2_SCHEMAS } from './cyborg-v2-schemas';

export const CYBORG_V2_OPENAPI_PATH = '/v2/openapi.json';

const MIN = formatMicroversion(MIN_MICROVERSION);
const MAX = formatMicroversion(MAX_MICROVERSION);

const DESCRIPTION = `OpenStack Cyborg's v2 API as the ledger serves it, for Nova and \`openstack accelerator\` (docs/cyborg-v2.md).

**Microversions** ${MIN}–${MAX}, asked with \`OpenStack-API-Version: accelerator 2.N\` (none means ${MIN}, \`latest\` means ${MAX}); others are 406 \`V2.VERSION_NOT_ACCEPTABLE\`. Every answer carries \`OpenStack-API-Minimum-Version\`, \`OpenStack-API-Maximum-Version\` and, from a negotiated request, \`OpenStack-API-Version\`.

| Microversion | Adds |
|---|---|
| 2.0 | everything not listed below |
| 2.1 | \`/project_id\` in a bind patch (admins) |
| 2.2 | \`GET /v2/device_profiles/{name}\` |
| 2.3 | \`status\` on devices (disable and enable work at every microversion here) |

**Errors** are \`{"error_message": "…"}\` (plus \`message\`, for openstacksdk), with the stable code in \`X-Error-Code\` (docs/errors.md): Cyborg's shape, without its JSON inside the string. Where Cyborg answers 500 (a missing name, a state conflict) the ledger answers 4xx.

**Reads see every earlier write**: each read waits (up to 5 s, then 503 \`CONSISTENCY.NOT_CAUGHT_UP\`) until the projections include everything recorded before the request came.

Paths without \`/v2\` (\`/device_profiles\`…) are served as \`/v2/…\`, as Cyborg does.`;

/** The v2 document: hand-written (Cyborg's shapes are not Nest DTOs); the e2e test holds it to the routes the app serves. */
export function buildCyborgV2OpenApiDocument() {
  return {
    openapi: '3.1.0',
    info: { title: 'Accelerator Ledger — Cyborg v2 API', version: MAX, description: DESCRIPTION },
    security: [{ token: [] }],
    tags: [{ name: 'versions' }, { name: 'device profiles' }, { name: 'accelerator requests' }, { name: 'devices, deployables, attributes' }],
    paths: CYBORG_V2_PATHS,
    components: {
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: 'X-Auth-Token', description: 'A ledger token (also `Authorization: Bearer`); Nova adds its own as `X-Service-Token`.' },
      },
      parameters: {
        OpenStackApiVersion: {
          name: 'OpenStack-API-Version',
          in: 'header',
          required: false,
          description: `\`accelerator 2.N\` (${MIN}–${MAX}) or \`accelerator latest\`; absent means ${MIN}.`,
          schema: { type: 'string', example: `accelerator ${MAX}` },
        },
      },
      responses: {
        CyborgError: {
          description: "An error, in Cyborg's shape; the stable code (docs/errors.md) is in `X-Error-Code`.",
          headers: { 'X-Error-Code': { schema: { type: 'string' }, description: 'e.g. ARQ.NOT_FOUND' } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/CyborgError' } } },
        },
      },
      schemas: CYBORG_V2_SCHEMAS,
    },
  };
}
