/**
 * The records the in-process server's logger writes (pino writes to fd 1 through `fs`), kept so a
 * test can say "nothing was logged as an error". Start it before the server; stop it after.
 */
import fs from 'node:fs';
import { vi } from 'vitest';

export interface LogCapture {
  /** Records at level error (50) or worse, parsed. */
  errors(): Array<{ level: number; msg?: string }>;
  stop(): void;
}

export function captureLogs(): LogCapture {
  const chunks: string[] = [];
  const spies = (['writeSync', 'write'] as const).map((method) => {
    const original = fs[method] as (...args: unknown[]) => unknown;
    return vi.spyOn(fs, method).mockImplementation(((...args: unknown[]) => {
      if (args[0] === 1 && (typeof args[1] === 'string' || Buffer.isBuffer(args[1]))) chunks.push(String(args[1]));
      return original.apply(fs, args);
    }) as never);
  });
  return {
    errors: () =>
      chunks
        .flatMap((chunk) => chunk.split('\n'))
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg?: string })
        .filter((record) => record.level >= 50),
    stop: () => spies.forEach((spy) => spy.mockRestore()),
  };
}
