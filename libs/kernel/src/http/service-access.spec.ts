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
  const send = async (url: string, token: string | undefined) => {
    sent.push({ url, token });
    return new Response(null, { status: statuses[sent.length - 1] ?? 200 });
  };
  return { sent, send };
};

describe('sendWithAccess', () => {
  it("sends once with the access's URL and token when the service accepts it", async () => {
    const { sent, send } = answering(204);
    expect((await sendWithAccess(fixedServiceAccess('http://service/', 'admin'), send)).status).toBe(204);
    expect(sent).toEqual([{ url: 'http://service', token: 'admin' }]);
  });

  it('on a 401, drops the refused token and sends once more with a fresh one', async () => {
    const access = renewingAccess();
    const { sent, send } = answering(401, 200);
    expect((await sendWithAccess(access, send)).status).toBe(200);
    expect(access.refusedTokens).toEqual(['token-1']);
    expect(sent.map((call) => call.token)).toEqual(['token-1', 'token-2']);
  });

  it('answers the second 401 as it is: one retry, no loop', async () => {
    const { sent, send } = answering(401, 401, 200);
    expect((await sendWithAccess(renewingAccess(), send)).status).toBe(401);
    expect(sent).toHaveLength(2);
  });

  it('does not send a fixed token twice: the same token would be refused again', async () => {
    const { sent, send } = answering(401);
    expect((await sendWithAccess(fixedServiceAccess('http://service', 'wrong'), send)).status).toBe(401);
    expect(sent).toHaveLength(1);
  });
});
