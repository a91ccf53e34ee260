/**
 * The registry of session types: one module each (session/session-module.ts). The only file
 * that knows every type; the hub, the HTTP routes and the services dispatch through it.
 */
import type { Catalog } from './assessment';
import { assessmentModule } from './assessment-session/assessment-module';
import type { CodeRunner } from './assessment-session/code-scoring';
import { learningModule } from './learning/learning-module';
import type { Clock, IdGenerator, Logger } from './ports';
import type { TutorProvider } from './provider';
import { recallModule } from './recall/recall-module';
import type { SessionModules } from './session/session-module';
import type { Storage } from './storage/storage';

export interface SessionModulesDeps {
  storage: Storage;
  provider: TutorProvider;
  catalog: Catalog;
  codeRunner: CodeRunner;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** See RoomBaseDeps. */
  socketGraceMs?: number;
}

export function createSessionModules(deps: SessionModulesDeps): SessionModules {
  return {
    recall: recallModule(deps),
    assessment: assessmentModule(deps),
    learning: learningModule(),
  };
}
