/**
 * What a test needs to set up in a real Keystone, through its REST API as
 * the bootstrap admin (the same calls `openstack project create`, `user
 * create`, `role add`, `service create` and `endpoint create` make, without
 * the CLI's two seconds of Python start-up each).
 */
export interface IssuedToken {
  readonly token: string;
  readonly expiresAt: Date;
  readonly userId: string;
  readonly projectId: string | null;
  readonly roles: readonly string[];
}

export interface PasswordScope {
  readonly user: string;
  readonly password: string;
  /** A project name in domain Default; absent: an unscoped token. */
  readonly project?: string;
}

export class KeystoneAdmin {
  private constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  static async signIn(url: string, adminPassword: string): Promise<KeystoneAdmin> {
    const { token } = await issueToken(url, { user: 'admin', password: adminPassword, project: 'admin' });
    return new KeystoneAdmin(url, token);
  }

  async createProject(name: string): Promise<string> {
    return (await this.call<{ project: { id: string } }>('POST', '/projects', { project: { name, domain_id: 'default' } })).project.id;
  }

  async createUser(name: string, password: string): Promise<string> {
    return (await this.call<{ user: { id: string } }>('POST', '/users', { user: { name, password, domain_id: 'default' } })).user.id;
  }

  /** The role's id, creating it when the cloud has none of that name (bootstrap makes admin, member and reader). */
  async role(name: string): Promise<string> {
    const found = await this.call<{ roles: { id: string }[] }>('GET', `/roles?name=${encodeURIComponent(name)}`);
    if (found.roles[0]) return found.roles[0].id;
    return (await this.call<{ role: { id: string } }>('POST', '/roles', { role: { name } })).role.id;
  }

  /** Grants `role` to the user on the project (`openstack role add --user U --project P ROLE`). */
  async grant(userId: string, projectId: string, role: string): Promise<void> {
    await this.call('PUT', `/projects/${projectId}/users/${userId}/roles/${await this.role(role)}`);
  }

  /** A user with a password and these roles on the project: what `openstack user create` plus `role add` make. */
  async userWithRoles(name: string, password: string, projectId: string, roles: readonly string[]): Promise<string> {
    const userId = await this.createUser(name, password);
    for (const role of roles) await this.grant(userId, projectId, role);
    return userId;
  }

  /** `openstack service create --name NAME TYPE` plus a public endpoint in RegionOne. */
  async registerService(type: string, name: string, endpointUrl: string, interfaces: readonly string[] = ['public']): Promise<string> {
    const serviceId = (await this.call<{ service: { id: string } }>('POST', '/services', { service: { type, name, enabled: true } })).service.id;
    for (const iface of interfaces) {
      await this.call('POST', '/endpoints', { endpoint: { service_id: serviceId, interface: iface, url: endpointUrl, region_id: 'RegionOne', enabled: true } });
    }
    return serviceId;
  }

  /** Revokes a token (`openstack token revoke`): Keystone refuses it from then on. */
  async revoke(token: string): Promise<void> {
    await this.call('DELETE', '/auth/tokens', undefined, { 'x-subject-token': token });
  }

  /** Whether Keystone takes the token as valid now (GET /v3/auth/tokens, as a service validating it asks). */
  async isValid(token: string): Promise<boolean> {
    const response = await fetch(`${this.url}/auth/tokens?nocatalog`, { headers: { 'x-auth-token': this.token, 'x-subject-token': token } });
    await response.body?.cancel();
    if (response.status !== 200 && response.status !== 404) throw new Error(`Keystone GET /auth/tokens: ${response.status}`);
    return response.status === 200;
  }

  /** A token for a user, as `openstack token issue` gets one. */
  issue(scope: PasswordScope): Promise<IssuedToken> {
    return issueToken(this.url, scope);
  }

  private async call<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { 'x-auth-token': this.token, 'content-type': 'application/json', ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Keystone ${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

export async function issueToken(url: string, scope: PasswordScope): Promise<IssuedToken> {
  const response = await fetch(`${url}/auth/tokens?nocatalog`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: { methods: ['password'], password: { user: { name: scope.user, domain: { id: 'default' }, password: scope.password } } },
        ...(scope.project !== undefined ? { scope: { project: { name: scope.project, domain: { id: 'default' } } } } : {}),
      },
    }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`Keystone refused a token for ${scope.user}: ${response.status} ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { token: { expires_at: string; user: { id: string }; project?: { id: string }; roles?: { name: string }[] } };
  return {
    token: response.headers.get('x-subject-token') ?? '',
    expiresAt: new Date(body.token.expires_at),
    userId: body.token.user.id,
    projectId: body.token.project?.id ?? null,
    roles: (body.token.roles ?? []).map((role) => role.name),
  };
}

/**
 * An application credential the user makes for itself with its own
 * project-scoped token (`openstack application credential create NAME` as
 * that user): it carries the user's roles on that project.
 */
export async function createApplicationCredential(url: string, scope: PasswordScope & { readonly project: string }, name: string): Promise<{ id: string; secret: string }> {
  const { token, userId } = await issueToken(url, scope);
  const response = await fetch(`${url}/users/${userId}/application_credentials`, {
    method: 'POST',
    headers: { 'x-auth-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ application_credential: { name } }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`Keystone refused an application credential for ${scope.user}: ${response.status} ${text.slice(0, 300)}`);
  const { application_credential: credential } = JSON.parse(text) as { application_credential: { id: string; secret: string } };
  return { id: credential.id, secret: credential.secret };
}
