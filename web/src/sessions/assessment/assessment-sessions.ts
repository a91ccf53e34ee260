import type { SessionListItem } from '@tutorloop/shared';

/** The sessions the assessments page lists as past attempts: this folder owns the type's name. */
export function isAssessmentSession(session: Pick<SessionListItem, 'type'>): boolean {
  return session.type === 'assessment';
}
