/**
 * Realistic recall points shared by the offline provider's tests (history, biology,
 * programming, chemistry, geography), with opaque ids like the database issues.
 */
import type { ChecklistPoint, TutorInput } from '../provider';

export const points = {
  mitochondria: {
    id: 'pt_3f9c2a71',
    content: 'The mitochondria produce ATP through oxidative phosphorylation',
    context: null,
  },
  apollo: {
    id: 'pt_8b14d0e5',
    content: 'Apollo 11 landed on the Moon in July 1969',
    context: 'The space race',
  },
  berlinWall: {
    id: 'pt_c02e77f9',
    content: 'The Berlin Wall fell in November 1989',
    context: null,
  },
  frenchRevolution: {
    id: 'pt_51aa9e30',
    content: 'The French Revolution began in 1789 with the storming of the Bastille',
    context: 'What happened in Paris in 1789?',
  },
  pythonTuples: {
    id: 'pt_9d7720c4',
    content: 'Python lists are mutable, whereas tuples are immutable',
    context: null,
  },
  bigO: {
    id: 'pt_e4b1f6a2',
    content: 'Binary search runs in logarithmic time on a sorted array',
    context: 'Algorithms and complexity',
  },
  photosynthesis: {
    id: 'pt_17c3b8d9',
    content: 'Photosynthesis',
    context: 'How plants make their own food from light',
  },
  dnaReplication: {
    id: 'pt_aa01c5e7',
    content:
      'DNA replication is semi-conservative: each new double helix keeps one original strand and one newly synthesised strand, as shown by the Meselson–Stahl experiment using nitrogen isotopes',
    context: 'Molecular biology',
  },
  avogadro: {
    id: 'pt_6e2d9b13',
    content: 'One mole contains 6.022 × 10^23 particles (Avogadro’s number)',
    context: null,
  },
  canberra: {
    id: 'pt_0c8f4e21',
    content: 'Canberra is the capital of Australia, not Sydney',
    context: null,
  },
} satisfies Record<string, ChecklistPoint>;

export const allPoints: ChecklistPoint[] = Object.values(points);

/** A tutor input for a recall turn, with sensible defaults. */
export function tutorInput(overrides: Partial<TutorInput> = {}): TutorInput {
  const checklist = overrides.checklist ?? allPoints.map((p) => ({ ...p, recalled: false }));
  return {
    trigger: 'learner_message',
    title: 'Exam prep — week 3',
    mode: 'recall',
    rabbitholeTopic: null,
    checklist,
    probePoint: checklist.find((p) => !p.recalled) ?? null,
    probeAttempts: 0,
    justRecalled: [],
    feedback: 'Nothing new recalled in the latest message. 10 ideas still to recall.',
    conversation: [],
    turn: 1,
    ...overrides,
  };
}
