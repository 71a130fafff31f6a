import type { CommandContext } from '@ledger/eventstore';
import { bitstreamIdOf } from '../../domain/bitstream-id';
import { type ProgrammingCommands, trustedKeys } from '../programming-commands';
import { verifyDetachedSignature } from '../signature/detached-signature.verifier';
import type { BitstreamMetadata, RegisteredBitstream } from './register-bitstream.command';

/**
 * The part of a registration both kinds share, once the bytes are in hand
 * (uploaded, or read from their origin): the signature's verdict against
 * the keys the log trusts now, then decide and append.
 */
export async function appendRegistration(
  commands: ProgrammingCommands,
  image: { readonly bytes: Buffer; readonly sha256: string; readonly originUrl: string | null },
  metadata: BitstreamMetadata,
  allowUnsigned: boolean,
  context: CommandContext,
): Promise<RegisteredBitstream> {
  const signature = verifyDetachedSignature(image.bytes, metadata.signature, await trustedKeys(commands), metadata.keyId);
  const bitstreamId = bitstreamIdOf(image.sha256);
  const sizeBytes = image.bytes.length;
  const result = await commands.bitstreams.run(
    {
      type: 'RegisterBitstream',
      sha256: image.sha256,
      sizeBytes,
      functionId: metadata.functionId,
      interfaceId: metadata.interfaceId,
      vendor: metadata.vendor,
      name: metadata.name,
      signature,
      allowUnsigned,
      originUrl: image.originUrl,
      registeredAt: new Date().toISOString(),
    },
    context,
  );
  return { bitstreamId, sha256: image.sha256, sizeBytes, signature, position: result.position! };
}
