/**
 * Everything the bench must undo (server children, temp folders) registers here, so a
 * normal end, an error and Ctrl-C all leave the machine as they found it.
 */
const cleanups = new Set<() => void | Promise<void>>();

/** Registers an undo step; call the returned function once the step is done by other means. */
export function registerCleanup(cleanup: () => void | Promise<void>): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

export async function runCleanups(): Promise<void> {
  const pending = [...cleanups].reverse();
  cleanups.clear();
  for (const cleanup of pending) {
    try {
      await cleanup();
    } catch (error) {
      console.error(`bench cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** On Ctrl-C or SIGTERM: undo everything, then exit. */
export function cleanUpOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, cleaning up…`);
      void runCleanups().finally(() => process.exit(130));
    });
  }
}
