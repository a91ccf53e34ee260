/** The SQLite adapter of the assessment repository port (items, responses, abilities). */
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AbilityReport, GeneratedItem } from '../core/assessment';
import type { AssessmentConfig, AssessmentRepository, StoredItem, StoredResponse } from '../core/assessment-session/assessment-repository';
import type { Database } from './database';
import { abilityEstimates, assessmentItems, responses, sessions } from './schema';

/** The assessment part of `sessions.config`, checked when read back. */
const StoredConfig = z.object({
  blueprintId: z.string(),
  seed: z.string(),
  timeLimitSeconds: z.number().int().positive(),
});

/** The config a new assessment session is stored with. */
export function assessmentConfig(blueprintId: string, seed: string, timeLimitSeconds: number): Record<string, unknown> {
  return { blueprintId, seed, timeLimitSeconds };
}

type ItemRow = typeof assessmentItems.$inferSelect;

function toStoredItem(row: ItemRow): StoredItem {
  const item: GeneratedItem = {
    skillId: row.skillId,
    domain: row.domain,
    sectionId: row.sectionId,
    kind: row.kind as GeneratedItem['kind'],
    stem: row.stem,
    ...(row.options ? { options: row.options } : {}),
    ...(row.correctIndex !== null ? { correctIndex: row.correctIndex } : {}),
    correctAnswer: row.correctAnswer,
    ...(row.code ? { code: row.code as unknown as NonNullable<GeneratedItem['code']> } : {}),
    difficulty: row.difficulty,
    level: row.level as GeneratedItem['level'],
    params: row.params,
    fingerprint: row.fingerprint,
  };
  return { id: row.id, sessionId: row.sessionId, position: row.position, item, widgetId: row.widgetId, presentedAt: row.presentedAt };
}

export class SqliteAssessmentRepository implements AssessmentRepository {
  constructor(private readonly database: Database) {}

  getConfig(sessionId: string): AssessmentConfig | null {
    const row = this.database.select({ config: sessions.config }).from(sessions).where(eq(sessions.id, sessionId)).get();
    const parsed = StoredConfig.safeParse(row?.config);
    return parsed.success ? parsed.data : null;
  }

  listItems(sessionId: string): StoredItem[] {
    return this.database.select().from(assessmentItems).where(eq(assessmentItems.sessionId, sessionId)).orderBy(asc(assessmentItems.position)).all().map(toStoredItem);
  }

  addItem(stored: StoredItem): void {
    const { item } = stored;
    this.database
      .insert(assessmentItems)
      .values({
        id: stored.id,
        sessionId: stored.sessionId,
        position: stored.position,
        sectionId: item.sectionId,
        skillId: item.skillId,
        domain: item.domain,
        kind: item.kind,
        stem: item.stem,
        options: item.options ?? null,
        correctIndex: item.correctIndex ?? null,
        correctAnswer: item.correctAnswer,
        code: (item.code as unknown as Record<string, unknown> | undefined) ?? null,
        difficulty: item.difficulty,
        level: item.level,
        params: item.params,
        fingerprint: item.fingerprint,
        widgetId: stored.widgetId,
        presentedAt: stored.presentedAt,
      })
      .run();
  }

  listResponses(sessionId: string): StoredResponse[] {
    return this.database
      .select()
      .from(responses)
      .where(eq(responses.sessionId, sessionId))
      .orderBy(asc(responses.answeredAt))
      .all()
      .map((row) => ({
        itemId: row.itemId,
        answerText: row.answerText,
        credit: row.credit,
        testsPassed: row.testsPassed,
        testsTotal: row.testsTotal,
        note: row.note,
        responseSeconds: row.responseSeconds,
        answeredAt: row.answeredAt,
      }));
  }

  addResponse(sessionId: string, response: StoredResponse): void {
    this.database.insert(responses).values({ sessionId, ...response }).run();
  }

  saveAbilities(sessionId: string, learnerId: string, report: AbilityReport, at: Date): void {
    const rows = [{ domain: '*', ...report.overall }, ...report.domains];
    for (const row of rows) {
      const values = { ability: row.ability, standardError: row.standardError, responses: row.responses, updatedAt: at };
      this.database
        .insert(abilityEstimates)
        .values({ sessionId, learnerId, domain: row.domain, ...values })
        .onConflictDoUpdate({ target: [abilityEstimates.sessionId, abilityEstimates.domain], set: values })
        .run();
    }
  }
}
