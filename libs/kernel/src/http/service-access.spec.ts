import { wrapOutboundRequests } from './outbound-wrapper';
import { fixedServiceAccess, type ServiceAccess, sendWithAccess } from './service-access';

/** An access whose tokens are numbered: each refusal makes the next one. */
function renewingAccess(): ServiceAccess & { refusedTokens: string[] } {
  let issued = 1;
  const refusedTokens: string[] = [];
  return {
    refusedTokens,
    url: async () => 'http://service',
    token: async () => `token-${issued}`,
    refused: (token) => {
      refusedTokens.push(token);
      issued += 1;
      return true;
    },
  };
}

const answering = (...statuses: number[]) => {
  const sent: { url: string; token: string | undefined }[] = [];
  const send = async (url: string, headers: Readonly<Record<string, string>>) => {
    sent.push({ url, token: headers['x-auth-token'] });
    return new Response(null, { status: statuses[sent.length - 1] ?? 200 });
  };
  return { sent, send };
};

const REQUEST = { service: 'Things', method: 'GET', path: '/things' };

describe('sendWithAccess', () => {
  it("sends once with the access's URL and token when the service accepts it", async () => {
    const { sent, send } = answering(204);
    expect((await sendWithAccess(fixedServiceAccess('http://service/', 'admin'), REQUEST, send)).status).toBe(204);
    expect(sent).toEqual([{ url: 'http://service/things', token: 'admin' }]);
  });

  it('on a 401, drops the refused token and sends once more with a fresh one', async () => {
    const access = renewingAccess();
    const { sent, send } = answering(401, 200);
    expect((await sendWithAccess(access, REQUEST, send)).status).toBe(200);
    expect(access.refusedTokens).toEqual(['token-1']);
    expect(sent.map((call) => call.token)).toEqual(['token-1', 'token-2']);
  });

  it('answers the second 401 as it is: one retry, no loop', async () => {
    const { sent, send } = answering(401, 401, 200);
    expect((await sendWithAccess(renewingAccess(), REQUEST, send)).status).toBe(401);
    expect(sent).toHaveLength(2);
  });

  it('does not send a fixed token twice: the same token would be refused again', async () => {
    const { sent, send } = answering(401);
    expect((await sendWithAccess(fixedServiceAccess('http://service', 'wrong'), REQUEST, send)).status).toBe(401);
    expect(sent).toHaveLength(1);
  });

  it('lets the process wrapper see each request sent, retry included, and add headers to it', async () => {
    const seen: string[] = [];
    const received: Readonly<Record<string, string>>[] = [];
    wrapOutboundRequests(async (request, send) => {
      seen.push(`${request.service} ${request.method} ${request.url}`);
      return send({ traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`, 'x-auth-token': 'not the wrapper\'s to set' });
    });
    try {
      const response = await sendWithAccess(renewingAccess(), REQUEST, async (_url, headers) => {
        received.push(headers);
        return new Response(null, { status: received.length === 1 ? 401 : 200 });
      });
      expect(response.status).toBe(200);
    } finally {
      wrapOutboundRequests(undefined);
    }
    expect(seen).toEqual(['Things GET http://service/things', 'Things GET http://service/things']);
    expect(received.map((headers) => headers['x-auth-token'])).toEqual(['token-1', 'token-2']);
    expect(received.every((headers) => headers.traceparent?.startsWith('00-111'))).toBe(true);
  });
});
