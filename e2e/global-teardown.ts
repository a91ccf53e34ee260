/** Deletes the temporary data folder (SQLite file, secrets) the config created for this run. */
import { rmSync } from 'node:fs';

export default function globalTeardown(): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (dataDir && process.env.E2E_DATA_DIR_TEMPORARY === '1') rmSync(dataDir, { recursive: true, force: true });
}
