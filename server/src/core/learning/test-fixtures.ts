/** A small study plan for learning-session tests (no test library here: only tests import it). */
import { StudyPlanContent } from '@tutorloop/shared';

export const additionPlan: StudyPlanContent = StudyPlanContent.parse({
  title: 'Adding two-digit numbers',
  topic: 'two-digit addition',
  audience: 'Grade 2',
  objectives: ['Add two two-digit numbers with and without carrying.'],
  prerequisites: ['Adding one-digit numbers'],
  misconceptions: [{ concept: 'carrying', description: 'Writes both digits of a column sum instead of carrying the ten.' }],
  teachingApproach: 'Concrete first: tens and ones, then the column method.',
  steps: [
    { number: 1, type: 'explain', concept: 'place value', contentHint: 'A two-digit number is made of tens and ones. In 47 there are 4 tens and 7 ones.' },
    {
      number: 2,
      type: 'check',
      concept: 'place value',
      contentHint: 'Count the tens first, then the ones.',
      questions: [
        { question: 'How many tens are in 58?', expectedAnswer: '5', acceptedAnswers: ['five tens'] },
        { question: 'What number has 3 tens and 9 ones?', expectedAnswer: '39', acceptedAnswers: [] },
      ],
    },
    { number: 3, type: 'practice', concept: 'column addition', contentHint: 'Add the ones, then the tens.', skillBlueprintId: 'MATH.ARITH.ADD.2DIGIT', items: 1 },
    {
      number: 4,
      type: 'check',
      concept: 'carrying',
      contentHint: 'When the ones add up to ten or more, carry one ten into the tens column.',
      questions: [{ question: 'What is 27 + 15?', expectedAnswer: '42', acceptedAnswers: ['forty-two'] }],
    },
  ],
});
