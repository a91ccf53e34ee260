/**
 * What authored documents (study plans, surveys) share in memory, as in SQLite
 * (db/sqlite-authored.ts): who may read one, and the order lists show them in.
 */
import { sortBy } from './memory-state';

/** The fields every authored document has. */
export interface Authored {
  id: string;
  ownerId: string | null;
  shared: boolean;
  builtIn: boolean;
  title: string;
  updatedAt: Date;
}

/** Readable by `learnerId`: their own, shared ones and built-in ones. */
export function visibleTo(learnerId: string): (row: Authored) => boolean {
  return (row) => row.ownerId === learnerId || row.shared || row.builtIn;
}

/** Learners' documents first, most recently updated first; built-in ones last, by title; ties by id. */
export function listOrder<Row extends Authored>(rows: Row[]): Row[] {
  return sortBy(
    rows,
    (row) => (row.builtIn ? 1 : 0),
    (row) => (row.builtIn ? 0 : -row.updatedAt.getTime()),
    (row) => (row.builtIn ? row.title : ''),
    (row) => row.id,
  );
}
