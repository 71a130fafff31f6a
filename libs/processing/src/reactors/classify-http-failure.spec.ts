import { classifyFetchFailure, classifyHttpStatus } from './classify-http-failure';
import { ReactorRejectedError, ReactorUnavailableError } from './reactor.errors';

describe('classifying an outside answer', () => {
  it.each([200, 201, 204, 207])('%i is an acknowledgement', (status) => {
    expect(classifyHttpStatus(status, 'Nova')).toBeUndefined();
  });

  it.each([500, 502, 503, 504, 429, 408, 409, 401, 403])('%i means the outside is unavailable', (status) => {
    expect(classifyHttpStatus(status, 'Nova')).toBeInstanceOf(ReactorUnavailableError);
  });

  it.each([400, 404, 405, 410, 413, 422])('%i rejects the event', (status) => {
    const failure = classifyHttpStatus(status, 'Nova', { badRequest: 'no' });
    expect(failure).toBeInstanceOf(ReactorRejectedError);
    expect(failure).toMatchObject({ code: 'REACTOR.REJECTED', facts: { status, body: { badRequest: 'no' } } });
    expect(failure!.message).toBe(`Nova answered ${status}: {"badRequest":"no"}`);
  });

  it('treats what fetch throws as unreachable and keeps typed errors', () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    expect(classifyFetchFailure(refused, 'Nova')).toMatchObject({ code: 'REACTOR.UNAVAILABLE', message: 'Nova unreachable: fetch failed (connect ECONNREFUSED 127.0.0.1:9)' });
    expect(classifyFetchFailure(new DOMException('timed out', 'TimeoutError'), 'Nova')).toBeInstanceOf(ReactorUnavailableError);
    const rejected = new ReactorRejectedError('no');
    expect(classifyFetchFailure(rejected, 'Nova')).toBe(rejected);
  });
});
