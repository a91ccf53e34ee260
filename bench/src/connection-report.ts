/** The connections part's rows and notes (`connection-run.ts`): sockets held, RSS per checkpoint, heap groups. */
import type { ConnectionCheckpoint, ConnectionRun, HeapReport } from './connection-run';
import type { Row } from './report';

export const connectionTargets = {
  connections: 10_000,
  /** RSS after a full GC (issue 27): idle, at 1,000 sockets, at 10,000. */
  rssIdleBytes: 80e6,
  rssAt1000Bytes: 150e6,
  rssAt10000Bytes: 300e6,
} as const;

const megabytes = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / 1e6).toFixed(1)} MB`);
const mark = (ok: boolean) => (ok ? '✓' : '✗');

function failureText(failures: Record<string, number>): string {
  const entries = Object.entries(failures);
  return entries.length ? ` (${entries.map(([reason, count]) => `${count}× ${reason}`).join(', ')})` : '';
}

export function connectionRows(run: ConnectionRun): Row[] {
  const at = (label: string) => run.checkpoints.find((point) => point.label === label);
  const detail = (point: ConnectionCheckpoint | undefined) => (point ? `before the GC ${megabytes(point.rssBytes)} · heap ${megabytes(point.heapUsedAfterGcBytes)} of ${megabytes(point.heapTotalAfterGcBytes)} committed · external ${megabytes(point.externalAfterGcBytes)}` : 'n/a');
  const rssRow = (label: string, measure: string, limit: number, sockets: number): Row => {
    const point = at(label);
    return {
      measure,
      result: point ? megabytes(point.rssAfterGcBytes) : 'n/a',
      baseline: detail(point),
      target: `≤ ${megabytes(limit)}`,
      verdict: point ? mark(point.rssAfterGcBytes <= limit && point.sockets >= sockets) : '✗',
    };
  };
  const setup = at('after the REST set-up');
  const afterTurn = at('after one turn each');
  const rows: Row[] = [
    {
      measure: 'Concurrent WebSocket connections held (each its own session, one turn each, generator in its own process)',
      result: `${run.heldAfterTurn.toLocaleString('en-US')} / ${run.target.toLocaleString('en-US')}${failureText(run.failures)}`,
      baseline: `opened in ${run.connectSeconds.toFixed(1)} s, ${run.turns.toLocaleString('en-US')} turns in ${run.turnSeconds.toFixed(1)} s; open-files limit ${run.openFilesLimit?.toLocaleString('en-US') ?? 'n/a'}`,
      target: connectionTargets.connections.toLocaleString('en-US'),
      verdict: mark(run.heldAfterTurn >= connectionTargets.connections && run.turns >= connectionTargets.connections),
    },
    rssRow('idle', 'Server RSS idle, after a full GC', connectionTargets.rssIdleBytes, 0),
  ];
  if (run.target >= 1000) rows.push(rssRow('1,000 sockets', 'Server RSS at 1,000 sockets, after a full GC', connectionTargets.rssAt1000Bytes, 1000));
  const top = `${run.target.toLocaleString('en-US')} sockets`;
  if (run.target !== 1000) rows.push(rssRow(top, `Server RSS at ${top}, after a full GC`, run.target >= 10_000 ? connectionTargets.rssAt10000Bytes : connectionTargets.rssAt1000Bytes, run.target));
  rows.push({
    measure: 'Server RSS after one turn on each socket, after a full GC',
    result: afterTurn ? megabytes(afterTurn.rssAfterGcBytes) : 'n/a',
    baseline: `${detail(afterTurn)} · after the REST set-up ${megabytes(setup?.rssAfterGcBytes ?? null)} · peak ${megabytes(run.peakRssBytes)}`,
    target: '',
    verdict: '',
  });
  return rows;
}

/** The heap snapshots' summary, as lines. */
export function heapLines(heap: HeapReport): string[] {
  const group = (entry: { name: string; count: number; selfMb: number }) => `  ${entry.selfMb.toFixed(2).padStart(7)} MB  ${entry.count.toLocaleString('en-US').padStart(9)} × ${entry.name}`;
  return [
    `Heap at idle (snapshot after a full GC): ${heap.idle.totalMb.toFixed(1)} MB; largest groups by self size:`,
    ...heap.idle.groups.map(group),
    `Heap at ${heap.atSockets.sockets.toLocaleString('en-US')} sockets: ${heap.atSockets.totalMb.toFixed(1)} MB; largest groups by self size:`,
    ...heap.atSockets.groups.map(group),
    `Heap each socket adds (after the set-up → ${heap.atSockets.sockets.toLocaleString('en-US')} sockets): ${(heap.perSocket.bytes / 1000).toFixed(2)} KB; by group (objects, bytes per socket):`,
    ...heap.perSocket.groups.map((entry) => `  ${entry.bytesPerUnit.toFixed(0).padStart(7)} B  ${entry.countPerUnit.toFixed(1).padStart(6)} × ${entry.name}`),
  ];
}
