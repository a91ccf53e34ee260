/**
 * JWT issue and verification with jose. The algorithm is pinned (HS256) on verify, so a
 * token signed with `none` or another algorithm is rejected, and a token must carry `exp`,
 * `iat` and `sub` (SPEC §8): one without an expiry never verifies, even with the right key.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

const algorithm = 'HS256';
const issuer = 'tutorloop';
const lifetime = '7d';

export interface TokenService {
  issue(learnerId: string): Promise<string>;
  /** The learner id, or null for a missing, malformed, expired or forged token. */
  verify(token: string | undefined | null): Promise<string | null>;
}

export function createTokenService(secret: string): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    issue: (learnerId) =>
      new SignJWT({}).setProtectedHeader({ alg: algorithm }).setSubject(learnerId).setIssuer(issuer).setIssuedAt().setExpirationTime(lifetime).sign(key),
    async verify(token) {
      if (!token) return null;
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [algorithm], issuer, requiredClaims: ['exp', 'iat', 'sub'] });
        return typeof payload.sub === 'string' ? payload.sub : null;
      } catch {
        return null;
      }
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
