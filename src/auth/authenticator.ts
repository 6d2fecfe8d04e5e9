// Resolves the token of a request to its organization and user. Every call reads the control
// store, so a token revoked by the CLI is refused on its next use; last_used_at is written at
// most once a minute per token to keep writes off the hot path.

import { AppError } from '../errors.js';
import type { TokenIdentity } from './identity.js';
import { hashToken } from './tokens.js';

const TOUCH_EVERY_MS = 60_000;

/** What the authenticator needs of the control store. */
export interface TokenDirectory {
  /** The identity of a live token by its digest, or null when unknown or revoked; sees every write made before the call. */
  resolveToken(tokenHash: string): Promise<TokenIdentity | null>;
  /** Records that a token was used; `at` is ISO 8601 UTC text. */
  touchToken(tokenHash: string, at: string): Promise<void>;
  /** The user of a live token when that user is disabled, else null (read only for a token that did not resolve). */
  disabledUserOf(tokenHash: string): Promise<{ userId: string; disabledAt: string } | null>;
}

/** Digests kept of tokens that resolved (see Authenticator.digests). */
const DIGESTS_KEPT = 10_000;
/**
 * The longest token text kept as a key: a token is at most 512 characters (a fixture's). A valid
 * token sent padded with spaces, or in another case, still resolves; kept under each such text, a
 * holder of one token could make a process hold 10,000 header-sized keys (some 160 MB).
 */
const KEPT_TOKEN_MAX = 512;

export class Authenticator {
  private readonly touched = new Map<string, number>();
  /**
   * The digest of each token as sent that resolved to an identity lately: hashing is a fifth of the
   * token check. Only tokens that resolved are kept, so random tokens cannot fill it, and it is
   * emptied when full. The identity itself is read from the store on every request.
   */
  private readonly digests = new Map<string, string>();

  constructor(private readonly control: TokenDirectory, private readonly now: () => number = Date.now) {}

  /** The identity of `token`; throws TOKEN_MISSING (absent or empty) or TOKEN_INVALID (unknown or revoked). */
  async authenticate(token: string | undefined): Promise<TokenIdentity> {
    if (token === undefined || token.trim() === '') {
      throw new AppError('TOKEN_MISSING', 'No API token: send it in the tokenid header (or the tokenid query parameter).');
    }
    let hash = this.digests.get(token);
    const known = hash !== undefined;
    hash ??= hashToken(token);
    const identity = await this.control.resolveToken(hash);
    if (!identity) {
      // A live token of a disabled user: a new token would be refused too, so say what is wrong.
      const disabled = await this.control.disabledUserOf(hash);
      if (disabled) {
        throw new AppError('TOKEN_INVALID', `The API token's user ${disabled.userId} is disabled (since ${disabled.disabledAt}), and so are all their tokens, new ones included. An administrator enables them with \`orchard user enable --id ${disabled.userId}\`.`);
      }
      throw new AppError('TOKEN_INVALID', 'The API token is not valid: it is unknown or has been revoked. Create a new one with `orchard token create`.');
    }
    if (!known && token.length <= KEPT_TOKEN_MAX) {
      if (this.digests.size >= DIGESTS_KEPT) this.digests.clear();
      this.digests.set(token, hash);
    }
    const t = this.now();
    const last = this.touched.get(hash) ?? (identity.lastUsedAt ? Date.parse(identity.lastUsedAt) : 0);
    if (t - last >= TOUCH_EVERY_MS) {
      this.touched.set(hash, t);
      if (this.touched.size > 100_000) this.touched.clear();
      await this.control.touchToken(hash, new Date(t).toISOString());
    }
    return identity;
  }
}
