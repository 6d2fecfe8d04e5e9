// Resolves the token of a request to its organization and user. Every call reads the control
// store, so a token revoked by the CLI is refused on its next use; last_used_at is written at
// most once a minute per token to keep writes off the hot path.

import { AppError } from '../errors.js';
import type { ControlStore, TokenIdentity } from '../store/types.js';
import { hashToken } from './tokens.js';

const TOUCH_EVERY_MS = 60_000;

export class Authenticator {
  private readonly touched = new Map<string, number>();

  constructor(private readonly control: ControlStore, private readonly now: () => number = Date.now) {}

  /** The identity of `token`; throws TOKEN_MISSING (absent or empty) or TOKEN_INVALID (unknown or revoked). */
  async authenticate(token: string | undefined): Promise<TokenIdentity> {
    if (token === undefined || token.trim() === '') {
      throw new AppError('TOKEN_MISSING', 'No API token: send it in the tokenid header (or the tokenid query parameter).');
    }
    const hash = hashToken(token);
    const identity = await this.control.resolveToken(hash);
    if (!identity) {
      throw new AppError('TOKEN_INVALID', 'The API token is not valid: it is unknown or has been revoked. Create a new one with `orchard token create`.');
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
