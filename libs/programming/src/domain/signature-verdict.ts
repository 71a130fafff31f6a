/**
 * What checking an image's detached signature found. Computed by the
 * application layer (node:crypto against the trusted keys) and handed to the
 * decider in the command, which applies the policy; recorded with the image.
 */
export type SignatureVerdict =
  | { readonly verdict: 'valid'; readonly keyId: string }
  | { readonly verdict: 'invalid'; readonly reason: string; readonly keyId?: string }
  | { readonly verdict: 'unsigned' };
