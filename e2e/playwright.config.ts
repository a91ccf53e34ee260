/**
 * End-to-end tests in Debian's Chromium against the real server (offline tutor, temporary
 * SQLite file) started by Playwright on a free loopback port and stopped after the run.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

// Evaluated once in the runner; workers inherit the environment it sets.
process.env.E2E_PORT ??= String(await freePort());
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'tutorloop-e2e-'));
  // Ours to delete after the run (global-teardown.ts); a folder passed in is left alone.
  process.env.E2E_DATA_DIR_TEMPORARY = '1';
}
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: './tests',
  globalTeardown: './global-teardown.ts',
  // Screenshots and traces of failed tests (gitignored); `npx playwright show-trace <zip>`.
  outputDir: path.join(here, 'test-results'),
  timeout: 90_000,
  expect: { timeout: 10_000 },
  workers: 1,
  retries: 0,
  forbidOnly: true,
  // `scripts/test.mjs` sets PLAYWRIGHT_JSON_OUTPUT_NAME and reads the counts from that file;
  // without it the JSON report would go to stdout, so it is only added when asked for.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `"${process.execPath}" --import tsx src/main.ts`,
    cwd: path.join(root, 'server'),
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    env: {
      PORT: process.env.E2E_PORT,
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      LLM_PROVIDER: 'offline',
      ANTHROPIC_API_KEY: '',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(root, 'web', 'dist'),
    },
  },
});
