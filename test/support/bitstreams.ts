import { createHash, type KeyObject, sign } from 'node:crypto';

/** A public key as POST /api/v1/signing-keys takes it. */
export const pemOf = (key: KeyObject): string => key.export({ type: 'spki', format: 'pem' }).toString();

/** The function id an image declares unless the test says otherwise. */
export const IMAGE_FUNCTION_ID = '9f'.repeat(16);

/** A registration body (POST /api/v1/bitstreams): the image's bytes and (unless `signer` is null) a detached Ed25519 signature by `signer`. */
export function imageBody(content: Buffer, signer: KeyObject | null, extra: Record<string, unknown> = {}) {
  return {
    content: content.toString('base64'),
    ...(signer ? { signature: sign(null, content, signer).toString('base64') } : {}),
    functionId: IMAGE_FUNCTION_ID,
    interfaceId: 'b7a6f1d0c5e44c3b8e3f2a1b0c9d8e7f',
    vendor: 'intel',
    ...extra,
  };
}

/** An image store on loopback for origin-URL registrations: serves `images` by path, counts reads; close it after. */
export async function serveImages(images: Map<string, Buffer>): Promise<{ readonly url: (path: string) => string; readonly reads: Map<string, number>; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const reads = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    reads.set(path, (reads.get(path) ?? 0) + 1);
    const image = images.get(path);
    if (!image) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': image.length }).end(image);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    reads,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A registration by origin URL: the declared sha256 and size of `content`, and (unless `signer` is null) its detached Ed25519 signature. */
export function originBody(url: string, content: Buffer, signer: KeyObject | null, extra: Record<string, unknown> = {}) {
  const { content: _bytes, ...rest } = imageBody(content, signer);
  return { ...rest, url, sha256: createHash('sha256').update(content).digest('hex'), sizeBytes: content.length, ...extra };
}
