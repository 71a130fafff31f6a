import { type KeyObject, sign } from 'node:crypto';

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
