import type { SessionListItem } from '@tutorloop/shared';

/** The sessions the study plans pages list (a plan's title and the steps done): this folder owns the type's name. */
export function isLearningSession(session: Pick<SessionListItem, 'type'>): boolean {
  return session.type === 'learning';
}
