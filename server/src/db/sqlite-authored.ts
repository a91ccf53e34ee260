/**
 * What authored documents (study plans, surveys) share in SQLite (SPEC §6: they belong to their
 * author; `shared` makes one readable by every learner; built-in ones are readable by all):
 * who may read one, and the order lists show them in.
 */
import { asc, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

/** The columns every authored-document table has. */
export interface AuthoredColumns {
  id: SQLiteColumn;
  ownerId: SQLiteColumn;
  shared: SQLiteColumn;
  builtIn: SQLiteColumn;
  title: SQLiteColumn;
  updatedAt: SQLiteColumn;
}

/** Rows `learnerId` may read: their own, shared ones and built-in ones. */
export function visibleTo(table: AuthoredColumns, learnerId: string): SQL | undefined {
  return or(eq(table.ownerId, learnerId), eq(table.shared, true), eq(table.builtIn, true));
}

/** Learners' documents first, most recently updated first; built-in ones last, by title; ties by id. */
export function listOrder(table: AuthoredColumns): SQL[] {
  return [
    asc(table.builtIn),
    desc(sql`CASE WHEN ${table.builtIn} THEN 0 ELSE ${table.updatedAt} END`),
    asc(sql`CASE WHEN ${table.builtIn} THEN ${table.title} ELSE '' END`),
    asc(table.id),
  ];
}
