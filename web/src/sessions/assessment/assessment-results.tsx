import type { SessionSummary } from '@tutorloop/shared';
import { lazy, useEffect, useMemo, useRef } from 'react';
import {
  assessmentResultsView,
  type AssessmentResultsView,
  type DomainResultView,
  type ItemReviewView,
} from '../../store/assessment';
import { ChartReadout } from '../../components/charts/chart-readout';
import { LazyChart } from '../../components/load-boundary';
import { Markdown } from '../../components/markdown';
import { TestCaseRow } from '../../components/test-case-row';

const DomainChart = lazy(() => import('../../components/charts/domain-chart'));

export interface AssessmentResultsProps {
  summary: SessionSummary;
  retakeBusy: boolean;
  retakeError: string | null;
  onBack(): void;
  /** Starts the same assessment again; absent when the results do not name it. */
  onRetake?(blueprintId: string): void;
}

const reasonNotes: Record<SessionSummary['reason'], string | null> = {
  all_recalled: null,
  all_answered: null,
  plan_completed: null,
  ended_by_learner: 'You ended this assessment early: unanswered items score zero.',
  time_expired: 'The time ran out: unanswered items score zero.',
  deleted: 'This assessment was deleted.',
};

function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return 'under a minute';
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * The end of an assessment: the score, each domain (chart and table) and every item with the
 * learner's answer next to the correct one — correct answers are shown only here.
 */
export function AssessmentResults({ summary, retakeBusy, retakeError, onBack, onRetake }: AssessmentResultsProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const results = summary.assessment;
  const view = useMemo(() => (results ? assessmentResultsView(results) : null), [results]);
  const note = reasonNotes[summary.reason];

  return (
    <section className="completion assessment-results" aria-labelledby="results-title" data-testid="assessment-results">
      <h1 id="results-title" ref={headingRef} tabIndex={-1}>
        Assessment complete
      </h1>
      {view ? (
        <>
          <p className="muted results-title">{view.title}</p>
          <p className="completion-score results-score" data-testid="assessment-score">
            {view.scoreLabel}
          </p>
          <p className="muted">
            <span data-testid="assessment-answered">{view.answeredLabel}</span> · {formatDuration(summary.durationSeconds)}
          </p>
        </>
      ) : (
        <p className="notice" data-testid="assessment-results-missing">
          Your results are not available yet. Try again in a moment.
        </p>
      )}
      {note ? <p className="notice">{note}</p> : null}

      {view ? (
        <>
          <DomainResults view={view} />
          <ItemReview items={view.items} />
        </>
      ) : null}

      {retakeError ? (
        <p className="form-error" role="alert">
          {retakeError}
        </p>
      ) : null}
      <div className="actions">
        <button type="button" className="button" onClick={onBack}>
          Back to assessments
        </button>
        {results && onRetake ? (
          <button
            type="button"
            className="button primary"
            onClick={() => onRetake(results.blueprintId)}
            disabled={retakeBusy}
            aria-busy={retakeBusy}
          >
            Take it again
          </button>
        ) : null}
      </div>
    </section>
  );
}

function DomainResults({ view }: { view: AssessmentResultsView }) {
  if (view.domains.length === 0) return null;
  return (
    <section className="results-section" aria-labelledby="domains-heading">
      <h2 id="domains-heading">By domain</h2>
      <figure className="chart-figure" aria-labelledby="domain-chart-caption" data-testid="domain-chart">
        <figcaption id="domain-chart-caption" className="chart-caption">
          Score per domain, as a share of the points available
        </figcaption>
        <ChartReadout
          label="Score per domain"
          readouts={view.domains.map((domain) => `${domain.label}: ${domain.percentLabel} (${domain.scoreLabel})`)}
          testId="domain-chart-keys"
        >
          {(active) => (
            <LazyChart>
              <DomainChart domains={view.domains} active={active} />
            </LazyChart>
          )}
        </ChartReadout>
      </figure>
      <DomainTable domains={view.domains} overall={view.overallAbilityLabel} />
      <p className="field-hint">
        Ability is an estimate on a logit scale: 0 means an item of average difficulty is a coin flip for you, higher
        is stronger; ± is its uncertainty, which shrinks with more answers.
      </p>
    </section>
  );
}

function DomainTable({ domains, overall }: { domains: DomainResultView[]; overall: string }) {
  return (
    <div className="table-scroll" role="region" aria-labelledby="domain-table-caption" tabIndex={0}>
      <table className="data-table" data-testid="domain-table">
        <caption id="domain-table-caption" className="visually-hidden">
          Results per domain
        </caption>
        <thead>
          <tr>
            <th scope="col">Domain</th>
            <th scope="col" className="numeric">
              Score
            </th>
            <th scope="col" className="numeric">
              Percent
            </th>
            <th scope="col" className="numeric">
              Ability
            </th>
          </tr>
        </thead>
        <tbody>
          {domains.map((domain) => (
            <tr key={domain.domain} data-testid="domain-row" data-domain={domain.domain}>
              <th scope="row">
                {domain.label}
                {domain.context ? <span className="domain-context">{domain.context}</span> : null}
              </th>
              <td className="numeric">{domain.scoreLabel}</td>
              <td className="numeric">{domain.percentLabel}</td>
              <td className="numeric">{domain.abilityLabel}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Overall ability</th>
            <td colSpan={2} />
            <td className="numeric" data-testid="overall-ability">
              {overall}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function ItemReview({ items }: { items: ItemReviewView[] }) {
  if (items.length === 0) return null;
  return (
    <section className="results-section" aria-labelledby="items-heading">
      <h2 id="items-heading">Item review</h2>
      <ol className="item-review" data-testid="item-review">
        {items.map((item) => (
          <ItemReviewRow key={item.position} item={item} />
        ))}
      </ol>
    </section>
  );
}

const outcomeMarks: Record<ItemReviewView['outcome'], string> = {
  correct: '✓',
  partial: '◐',
  incorrect: '✗',
  unanswered: '○',
};

function Answer({ item, value, testId }: { item: ItemReviewView; value: string | null; testId: string }) {
  if (value === null) {
    return (
      <dd className="muted" data-testid={testId}>
        No answer
      </dd>
    );
  }
  return item.kind === 'code' ? (
    <dd data-testid={testId}>
      <pre className="code-block">
        <code>{value}</code>
      </pre>
    </dd>
  ) : (
    <dd data-testid={testId}>{value}</dd>
  );
}

function ItemReviewRow({ item }: { item: ItemReviewView }) {
  const headingId = `item-${item.position}-heading`;
  return (
    <li
      className={`item-review-row outcome-${item.outcome}`}
      aria-labelledby={headingId}
      data-testid="item-review-row"
      data-position={item.position}
      data-outcome={item.outcome}
      data-credit={item.credit}
    >
      <div className="item-review-head">
        <h3 id={headingId} className="item-review-title">
          Item {item.position}
          <span className="muted"> · {item.section}</span>
        </h3>
        <span className={`outcome-pill outcome-${item.outcome}`} data-testid="item-credit">
          <span aria-hidden="true">{outcomeMarks[item.outcome]} </span>
          {item.creditLabel}
        </span>
        <span className="muted small" data-testid="item-time">
          <span className="visually-hidden">Time: </span>
          {item.timeLabel}
        </span>
      </div>
      <div className="item-stem" data-testid="item-stem">
        <Markdown text={item.stem} />
      </div>
      <dl className="item-answers">
        <div>
          <dt>Your answer</dt>
          <Answer item={item} value={item.yourAnswer} testId="item-your-answer" />
        </div>
        <div>
          <dt>Correct answer</dt>
          <Answer item={item} value={item.correctAnswer} testId="item-correct-answer" />
        </div>
        {item.testsLabel ? (
          <div>
            <dt>Tests</dt>
            <dd data-testid="item-tests">
              {item.testsLabel}
              {item.testsNote ? <span className="muted"> — {item.testsNote}</span> : null}
            </dd>
          </div>
        ) : null}
      </dl>
      {item.testCases.length > 0 ? <TestCaseList position={item.position} cases={item.testCases} /> : null}
    </li>
  );
}

/** Every test of a code item, hidden ones included now that the assessment is over: input, expected, what the code returned. */
function TestCaseList({ position, cases }: { position: number; cases: ItemReviewView['testCases'] }) {
  const headingId = `item-${position}-tests-heading`;
  return (
    <section className="item-test-cases" aria-labelledby={headingId} data-testid="item-test-cases">
      <h4 id={headingId} className="item-test-cases-title">
        Each test <span className="muted small">· examples were shown with the item; the others stayed hidden until the end</span>
      </h4>
      <ol className="test-cases">
        {cases.map((testCase, index) => (
          <TestCaseRow key={`${index}-${testCase.input}`} testCase={testCase} testId="item-test-case" showExampleTag />
        ))}
      </ol>
    </section>
  );
}
