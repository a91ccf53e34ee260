/**
 * Summarizes a V8 `.cpuprofile` (from `--profile`): self time by area (a package, a
 * server folder, node internals, GC) and by function, and inclusive time of the server's
 * own functions, so it is clear what a turn spends its CPU on.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  byArea: Array<{ area: string; selfMs: number; share: number }>;
  topSelf: Array<{ name: string; selfMs: number; share: number }>;
  serverInclusive: Array<{ name: string; inclusiveMs: number; share: number }>;
}

export function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pnpmPackage = /node_modules\/\.pnpm\/(@[^+/]+\+[^@/]+|[^@/]+)@/.exec(url);
  if (pnpmPackage) return pnpmPackage[1]!.replace('+', '/');
  const plainPackage = /node_modules\/(@[^/]+\/[^/]+|[^/]+)\//.exec(url);
  if (plainPackage) return plainPackage[1]!;
  const server = /\/server\/src\/([^/]+)\//.exec(url);
  if (server) return `server/src/${server[1]}`;
  if (url.includes('/shared/src/')) return 'shared';
  if (url.includes('/bench/src/')) return 'bench (fake LLM, IPC)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  return url;
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? url.replace(/^.*\/(server|shared|bench)\/src\//, '$1/').replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '').replace(/^file:\/\//, '') : '';
  // Modules loaded through tsx report line 0 (their code is transformed); no line then.
  return `${functionName || '(anonymous)'}${file ? ` ${file}${lineNumber > 0 ? `:${lineNumber + 1}` : ''}` : ''}`;
}

/**
 * The server child runs compiled (server/dist-bench, one bundle and its chunks): each frame of
 * the bundle is pointed back at its TypeScript source and line through the bundle's source map,
 * so areas and names read as they did when the child ran the sources.
 */
function mapToSources(profile: CpuProfile): void {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (url: string): SourceMap | null => {
    if (!maps.has(url)) {
      const mapFile = `${fileURLToPath(url)}.map`;
      maps.set(url, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]) : null);
    }
    return maps.get(url)!;
  };
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    if (!frame.url.startsWith('file://') || !frame.url.endsWith('.js') || frame.url.includes('/node_modules/')) continue;
    const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber ?? 0);
    if (!entry || !('originalSource' in entry) || !entry.originalSource) continue;
    const source = entry.originalSource.startsWith('file://') ? entry.originalSource : pathToFileURL(path.resolve(path.dirname(fileURLToPath(frame.url)), entry.originalSource)).href;
    node.callFrame = { ...frame, url: source, lineNumber: entry.originalLine };
  }
}

export function summarizeProfile(file: string, limit = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  mapToSources(profile);
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));
  const totalMs = [...self.values()].reduce((sum, value) => sum + value, 0);
  const share = (ms: number) => (totalMs ? ms / totalMs : 0);

  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, ms] of self) {
    const node = nodes.get(id)!;
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + ms);
    byFunction.set(label(node), (byFunction.get(label(node)) ?? 0) + ms);
  }

  // Inclusive time of server functions; a function on the stack twice counts once per sample path.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, ms] of self) {
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const node = nodes.get(current)!;
      if (!node.callFrame.url.includes('/server/src/')) continue;
      const name = label(node);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
    }
  }
  const top = <Row>(entries: Map<string, number>, make: (name: string, ms: number) => Row) =>
    [...entries].sort((left, right) => right[1] - left[1]).slice(0, limit).map(([name, ms]) => make(name, ms));
  return {
    totalMs,
    byArea: top(byArea, (area, selfMs) => ({ area, selfMs, share: share(selfMs) })),
    topSelf: top(byFunction, (name, selfMs) => ({ name, selfMs, share: share(selfMs) })),
    serverInclusive: top(inclusive, (name, inclusiveMs) => ({ name, inclusiveMs, share: share(inclusiveMs) })),
  };
}

export function formatProfileSummary(title: string, summary: ProfileSummary): string {
  const percent = (value: number) => `${(value * 100).toFixed(1).padStart(5)}%`;
  const lines = [`${title} — ${(summary.totalMs / 1000).toFixed(1)} s sampled`, '  self time by area:'];
  for (const row of summary.byArea) lines.push(`    ${percent(row.share)}  ${row.area}`);
  lines.push('  self time by function:');
  for (const row of summary.topSelf) lines.push(`    ${percent(row.share)}  ${row.name}`);
  lines.push('  inclusive time of server functions:');
  for (const row of summary.serverInclusive) lines.push(`    ${percent(row.share)}  ${row.name}`);
  return lines.join('\n');
}
