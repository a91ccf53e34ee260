/**
 * JWT issue and verification with jose. The algorithm is pinned (HS256) on verify, so a
 * token signed with `none` or another algorithm is rejected, and a token must carry `exp`,
 * `iat` and `sub` (SPEC §8): one without an expiry never verifies, even with the right key.
 *
 * A token also carries the learner's token version (`tv`) at issue; it verifies only while the
 * learner's version is still that one, so "sign out everywhere" and a new password (which move
 * the version on) refuse every token issued before, over REST and WebSocket alike.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

const algorithm = 'HS256';
const issuer = 'tutorloop';
const lifetime = '7d';

export interface TokenService {
  /** A token for the learner, under their current token version. */
  issue(learnerId: string): Promise<string>;
  /** The learner id, or null for a missing, malformed, expired, forged or revoked token (or a learner who no longer exists). */
  verify(token: string | undefined | null): Promise<string | null>;
}

/** The learner's current token version; null when there is no such learner. */
export type TokenVersionLookup = (learnerId: string) => Promise<number | null>;

export function createTokenService(secret: string, tokenVersionOf: TokenVersionLookup): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    async issue(learnerId) {
      const version = (await tokenVersionOf(learnerId)) ?? 0;
      return new SignJWT({ tv: version }).setProtectedHeader({ alg: algorithm }).setSubject(learnerId).setIssuer(issuer).setIssuedAt().setExpirationTime(lifetime).sign(key);
    },
    async verify(token) {
      if (!token) return null;
      let learnerId: string;
      let version: number;
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [algorithm], issuer, requiredClaims: ['exp', 'iat', 'sub'] });
        if (typeof payload.sub !== 'string') return null;
        learnerId = payload.sub;
        // Tokens issued before versions existed count as version 0.
        version = payload.tv === undefined ? 0 : typeof payload.tv === 'number' ? payload.tv : -1;
      } catch {
        return null;
      }
      const current = await tokenVersionOf(learnerId);
      return current !== null && current === version ? learnerId : null;
    },
  };
}

/** The signing secret: JWT_SECRET if set, else one generated once and kept in the data folder. */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
