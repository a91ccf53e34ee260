/**
 * Summaries of a V8 heap snapshot (`.heapsnapshot`, from `--heapsnapshot-signal` or
 * `v8.writeHeapSnapshot`): what holds the heap, grouped by constructor name (or the kind of a
 * string, array, code or native buffer), by self size; and the difference between two
 * snapshots divided by what was added between them (e.g. bytes per socket by group). Self
 * sizes, not retained sizes: the groups that grow with each socket are the objects each
 * socket keeps, which is what the difference shows.
 */
import { readFileSync } from 'node:fs';

export interface HeapGroup {
  name: string;
  count: number;
  selfMb: number;
}

export interface HeapGroups {
  totalBytes: number;
  groups: Map<string, { count: number; bytes: number }>;
  largestStrings: string[];
}

/** Every node of the snapshot, grouped by what it is, with self sizes summed. */
export function readHeapGroups(file: string): HeapGroups {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, { count: number; bytes: number }>();
  const strings: Array<{ bytes: number; text: string }> = [];
  let total = 0;
  for (let offset = 0; offset < snapshot.nodes.length; offset += width) {
    const type = types[snapshot.nodes[offset + typeAt]!]!;
    const size = snapshot.nodes[offset + sizeAt]!;
    total += size;
    const name = snapshot.strings[snapshot.nodes[offset + nameAt]!] ?? '';
    // A few large strings (source text, a data file) often explain the string total.
    if (type === 'string' && size > 256 * 1024) strings.push({ bytes: size, text: name.slice(0, 70).replace(/\s+/g, ' ') });
    // Objects by constructor; strings, code and arrays by kind (their names are their contents).
    const key =
      type === 'object' || type === 'native' || type === 'closure'
        ? `${type === 'object' ? '' : `(${type}) `}${name.length > 60 ? `${name.slice(0, 57)}…` : name}`
        : type === 'hidden' || type === 'array'
          ? `(${type}) ${name.length > 40 ? `${name.slice(0, 37)}…` : name}`
          : `(${type})`;
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += size;
    groups.set(key, group);
  }
  const largestStrings = strings
    .sort((left, right) => right.bytes - left.bytes)
    .slice(0, 5)
    .map((entry) => `${(entry.bytes / 1_048_576).toFixed(2)} MB: ${JSON.stringify(entry.text)}…`);
  return { totalBytes: total, groups, largestStrings };
}

/** The largest groups of a snapshot by self size. */
export function summariseHeapSnapshot(file: string, top = 12): { totalMb: number; groups: HeapGroup[]; largestStrings: string[] } {
  const read = readHeapGroups(file);
  const groups = [...read.groups.entries()]
    .sort((left, right) => right[1].bytes - left[1].bytes)
    .slice(0, top)
    .map(([name, group]) => ({ name, count: group.count, selfMb: group.bytes / 1_048_576 }));
  return { totalMb: read.totalBytes / 1_048_576, groups, largestStrings: read.largestStrings };
}

export interface HeapGrowth {
  name: string;
  /** Objects added per unit (e.g. per socket). */
  countPerUnit: number;
  bytesPerUnit: number;
}

/** The groups that grew most from `before` to `after`, per unit added between them. */
export function heapGrowth(before: HeapGroups, after: HeapGroups, units: number, top = 15): { bytesPerUnit: number; groups: HeapGrowth[] } {
  const growth: HeapGrowth[] = [];
  for (const [name, group] of after.groups) {
    const earlier = before.groups.get(name) ?? { count: 0, bytes: 0 };
    growth.push({ name, countPerUnit: (group.count - earlier.count) / units, bytesPerUnit: (group.bytes - earlier.bytes) / units });
  }
  growth.sort((left, right) => right.bytesPerUnit - left.bytesPerUnit);
  return { bytesPerUnit: (after.totalBytes - before.totalBytes) / units, groups: growth.slice(0, top) };
}
