import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../support/cli-error';
import { LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { cell, formatTable } from '../support/text-table';

type OutputOptions = LedgerApiOptions & { readonly json?: boolean };

interface BitstreamRow {
  readonly bitstreamId: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly functionId: string;
  readonly vendor: string;
  readonly name: string | null;
  readonly state: string;
  readonly signature: { readonly verdict: string; readonly keyId?: string };
}

const BITSTREAM_DESCRIPTION = "FPGA images: register with a detached signature, list, show, retire; trust signing keys (a running ledger's API)";

/**
 * `bitstream add|list|show|retire|trust-key`, through the running ledger's
 * API. The image and its signature are read here and sent base64-encoded;
 * the ledger checks the signature (docs/ledgerctl.md).
 */
export function registerBitstreamCommands(program: Command): void {
  const bitstream = program.command('bitstream').description(BITSTREAM_DESCRIPTION);

  withLedgerApiOptions(
    bitstream
      .command('add')
      .description('register an image; refused unless its detached signature verifies with a trusted key (or unsigned images are allowed)')
      .argument('[file]', 'the image (.gbs, .xclbin, .bit); or give --origin, --sha256 and --size')
      // Not --url: that names the ledger, as on every command that calls it.
      .option('--origin <url>', 'instead of a file: the http(s) URL the image is kept at (the ledger reads it once and keeps no bytes)')
      .option('--sha256 <hex>', 'with --origin: the sha256 the image must have')
      .option('--size <bytes>', 'with --origin: the size the image must have')
      .option('--sig <file>', 'the detached signature over the image bytes (raw bytes, or base64 text)')
      .requiredOption('--function-id <id>', 'the function (AFU id / logic uuid) the image loads, 32 hex digits')
      .requiredOption('--interface-id <id>', 'the shell / PR interface id the image needs')
      .option('--vendor <vendor>', 'the vendor', 'intel')
      .option('--name <name>', "an operator's name for the image")
      .option('--key-id <id>', 'check the signature with this trusted key only')
      .option('--json', 'print JSON'),
  ).action(async (file: string | undefined, options: OutputOptions & AddOptions) => {
    const body = {
      ...imageOf(file, options),
      ...(options.sig === undefined ? {} : { signature: signatureBase64(readBytes(options.sig)) }),
      ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
      functionId: options.functionId,
      interfaceId: options.interfaceId,
      vendor: options.vendor,
      ...(options.name === undefined ? {} : { name: options.name }),
    };
    const result = await LedgerApiClient.fromOptions(options).request<{ bitstreamId: string; sha256: string; signature: { verdict: string } }>(
      'POST',
      '/api/v1/bitstreams',
      body,
    );
    process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${result.bitstreamId}  sha256 ${result.sha256}  signature ${result.signature.verdict}\n`);
  });

  withLedgerApiOptions(bitstream.command('list').description('registered images').option('--live', 'only images not retired').option('--json', 'print JSON')).action(
    async (options: OutputOptions & { live?: boolean }) => {
      const rows = await LedgerApiClient.fromOptions(options).request<BitstreamRow[]>('GET', `/api/v1/bitstreams${options.live ? '?live=true' : ''}`);
      process.stdout.write(options.json ? `${JSON.stringify(rows)}\n` : formatBitstreamTable(rows));
    },
  );

  withLedgerApiOptions(bitstream.command('show').description('one image, as JSON').argument('<id>', 'the bitstream id')).action(
    async (id: string, options: LedgerApiOptions) => {
      const row = await LedgerApiClient.fromOptions(options).request('GET', `/api/v1/bitstreams/${encodeURIComponent(id)}`);
      process.stdout.write(`${JSON.stringify(row, null, 2)}\n`);
    },
  );

  withLedgerApiOptions(
    bitstream.command('retire').description('retire an image: it may no longer be programmed').argument('<id>', 'the bitstream id').option('--reason <text>', 'why'),
  ).action(async (id: string, options: LedgerApiOptions & { reason?: string }) => {
    const result = await LedgerApiClient.fromOptions(options).request<{ appended: number }>(
      'POST',
      `/api/v1/bitstreams/${encodeURIComponent(id)}/retire`,
      options.reason === undefined ? {} : { reason: options.reason },
    );
    process.stdout.write(result.appended ? `retired ${id}\n` : `${id} was retired already\n`);
  });

  withLedgerApiOptions(
    bitstream
      .command('trust-key')
      .description('trust a public key (PEM: Ed25519, RSA ≥ 2048 bits with PSS, ECDSA P-256) to sign images')
      .argument('<pemfile>', 'the public key')
      .option('--label <text>', 'what the key is'),
  ).action(async (pemFile: string, options: LedgerApiOptions & { label?: string }) => {
    const result = await LedgerApiClient.fromOptions(options).request<{ keyId: string; algorithm: string; appended: number }>('POST', '/api/v1/signing-keys', {
      publicKeyPem: readBytes(pemFile).toString('utf8'),
      ...(options.label === undefined ? {} : { label: options.label }),
    });
    process.stdout.write(`${result.keyId}  ${result.algorithm}${result.appended ? '' : '  (trusted already)'}\n`);
  });
}

type AddOptions = { sig?: string; origin?: string; sha256?: string; size?: string; functionId: string; interfaceId: string; vendor: string; name?: string; keyId?: string };

/** The image's bytes from FILE, or its origin URL with the sha256 and size the ledger checks it against. */
export function imageOf(file: string | undefined, options: Pick<AddOptions, 'origin' | 'sha256' | 'size'>): Record<string, unknown> {
  if ((file === undefined) === (options.origin === undefined)) throw new CliError('give an image FILE or --origin, not both', 2);
  if (options.origin === undefined) return { content: readBytes(file!).toString('base64') };
  const sizeBytes = Number(options.size);
  if (options.sha256 === undefined || !Number.isSafeInteger(sizeBytes) || sizeBytes < 1) throw new CliError('--origin needs --sha256 HEX and --size N (bytes)', 2);
  return { url: options.origin, sha256: options.sha256, sizeBytes };
}

function readBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`, 2);
  }
}

/** `openssl pkeyutl -sign` writes raw bytes; some pipelines keep signatures as base64 text. Both are accepted. */
export function signatureBase64(bytes: Buffer): string {
  const text = bytes.toString('latin1').trim();
  if (text.length > 0 && text.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(text)) return text;
  return bytes.toString('base64');
}

export function formatBitstreamTable(rows: readonly BitstreamRow[]): string {
  return formatTable(
    ['ID', 'NAME', 'FUNCTION', 'VENDOR', 'SIZE', 'SIGNATURE', 'STATE', 'SHA256'],
    rows.map((row) => [
      row.bitstreamId,
      cell(row.name),
      row.functionId,
      row.vendor,
      String(row.sizeBytes),
      row.signature.keyId ? `${row.signature.verdict} ${row.signature.keyId.slice(0, 12)}` : row.signature.verdict,
      row.state,
      row.sha256.slice(0, 16),
    ]),
  );
}
