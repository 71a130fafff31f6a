import { LedgerError } from '@ledger/kernel';

/**
 * Keystone did not answer, or answered with an error of its own: a token
 * cannot be checked, so the request is refused (503, never let through), or
 * the ledger cannot authenticate itself to call Placement or Nova.
 */
export const identityUnavailable = (why: string) => new LedgerError('AUTH.IDENTITY_UNAVAILABLE', 503, `Keystone is unavailable (${why}); retry`, { why });

/** The ledger's own Keystone credentials were refused: an operator's mistake, said as such. */
export const ledgerCredentialsRefused = (authUrl: string, status: number, detail: string) =>
  new LedgerError('AUTH.KEYSTONE_CREDENTIALS_REFUSED', 503, `Keystone at ${authUrl} refused the ledger's own credentials (${status}: ${detail}); check LEDGER_KEYSTONE_*`, {
    authUrl,
    status,
  });

/** The service catalog names no endpoint of this type (`openstack endpoint create` is missing). */
export const noEndpointInCatalog = (serviceType: string, iface: string, region: string | undefined) =>
  new LedgerError(
    'AUTH.NO_CATALOG_ENDPOINT',
    503,
    `the service catalog has no ${iface} endpoint for service type ${serviceType}${region ? ` in region ${region}` : ''}; register one (openstack endpoint create) or set its URL`,
    { serviceType, interface: iface, region: region ?? null },
  );
