/**
 * Offline proposals (SPEC §4.7, issue 26): extractive. Every paragraph is cut into atomic,
 * self-contained statements (sentences.ts); each is scored by
 *
 * - centrality: TextRank over TF-IDF statement vectors (cosine similarity; a statement many
 *   others resemble says what the document is about);
 * - form: a definition ("X is a …", "X is the process …", "X refers to …") counts most, a
 *   statement of relation ("X causes Y", "X consists of …", "requires", "produces") next;
 * - context: sharing a word with its heading, opening its section.
 *
 * The best statements, at most `maxProposals`, are returned in the document's order, near
 * duplicates left out, each quoting the exact span of its page's text it came from. Pure.
 */
import type { DocumentProposal } from '@tutorloop/shared';
import { isStopword, stem, tokenize } from '../offline/lexical';
import type { ExtractedDocument } from './document-model';
import { paragraphStatements } from './sentences';

interface Candidate {
  content: string;
  quote: string;
  page: number | undefined;
  heading: string | undefined;
  /** Stemmed content words, in order (repeats kept for term frequency). */
  terms: string[];
  form: number;
  headingOverlap: boolean;
  opensSection: boolean;
  order: number;
}

/** Links kept per statement in the TextRank graph. */
const neighbours = 25;
const minWords = 4;
const maxWords = 60;
const maxCharacters = 1000;
/** Weights of the score's parts: centrality in [0, 1], form in [0, 1], context bonuses. */
const centralityWeight = 0.6;
const formWeight = 0.4;
const headingBonus = 0.1;
const openingBonus = 0.05;
/**
 * Share of a document's statements proposed (before the cap): a short note is dense, and the
 * learner drops a proposal faster than they write a missing one; a long text repeats itself more.
 */
const shortDocumentStatements = 60;
const shortDocumentShare = 0.75;
const longDocumentShare = 0.5;
/** Two statements whose content words overlap this much (Jaccard) say the same thing. */
const duplicateOverlap = 0.7;

const definitionPatterns = [
  /^[^,;]{1,60}? (?:is|are) (?:a|an|the|any) /u,
  /^[^,;]{1,60}? (?:is|are) (?:called|known as|defined as)\b/u,
  /^[^,;]{1,60}? (?:refers? to|means?|is made of|are made of|consists? of|is composed of)\b/u,
];
const relationWords = [
  ' causes ', ' cause ', ' leads to ', ' lead to ', ' results in ', ' produces ', ' produce ', ' consists of ', ' consist of ', ' contains ',
  ' requires ', ' require ', ' depends on ', ' increases ', ' reduces ', ' releases ', ' absorbs ', ' because ', ' makes ', ' forms ',
  ' prevents ', ' allows ', ' enables ', ' converts ', ' drives ', ' raises ', ' lowers ', ' takes place ', ' occurs ', ' is used ', ' uses ',
];

/** Words after "X is" that make it a description of a state or an event, not a definition ("is released", "is often"). */
const notDefining = new Set(['not', 'also', 'often', 'usually', 'very', 'more', 'less', 'mostly', 'still', 'then', 'now', 'only', 'sometimes']);

/**
 * 1 for a definition ("X is a …", "Runoff is water that …"), 0.6 for a statement of relation
 * ("X causes Y"), 0.3 for another statement about a named subject, else 0.
 */
export function formScore(content: string, subject: string | null): number {
  if (definitionPatterns.some((pattern) => pattern.test(content))) return 1;
  if (subject !== null && subject.split(' ').length <= 4) {
    const after = content.slice(subject.length + 1).split(' ');
    const next = (after[1] ?? '').toLowerCase();
    if ((after[0] === 'is' || after[0] === 'are') && !notDefining.has(next) && !next.endsWith('ed') && !next.endsWith('en')) return 1;
  }
  const lower = ` ${content.toLowerCase()} `;
  // "Orographic lift causes heavy rainfall": a named subject and its relation, as good as a definition.
  if (subject !== null && relationWords.some((word) => lower.startsWith(` ${subject.toLowerCase()}${word}`))) return 0.9;
  if (relationWords.some((word) => lower.includes(word))) return 0.6;
  return subject !== null ? 0.3 : 0;
}

function contentTerms(text: string): string[] {
  return tokenize(text)
    .filter((token) => !isStopword(token))
    .map(stem);
}

function candidates(document: ExtractedDocument): Candidate[] {
  const found: Candidate[] = [];
  let heading: string | undefined;
  let headingTerms = new Set<string>();
  let subject: string | null = null;
  let opensSection = true;
  for (const block of document.blocks) {
    if (block.kind === 'heading') {
      heading = block.text;
      headingTerms = new Set(contentTerms(block.text));
      subject = null;
      opensSection = true;
      continue;
    }
    const statements = paragraphStatements(block.text, subject);
    for (const statement of statements) {
      const words = statement.content.split(' ').length;
      if (statement.subject) subject = statement.subject;
      // A question, a fragment cut by a page break or a heading-like line is not a point.
      if (words < minWords || words > maxWords || statement.content.length > maxCharacters || !/[.!]["”’')\]]*$/u.test(statement.content) || !/^[\p{Lu}\p{N}"“‘'(]/u.test(statement.content)) continue;
      const terms = contentTerms(statement.content);
      if (new Set(terms).size < 2) continue;
      found.push({
        content: statement.content,
        quote: block.text.slice(statement.quote.start, statement.quote.end),
        page: block.page,
        heading,
        terms,
        form: formScore(statement.content, statement.content.startsWith(statement.subject ?? '\u0000') ? statement.subject : null),
        headingOverlap: terms.some((term) => headingTerms.has(term)),
        opensSection,
        order: found.length,
      });
      opensSection = false;
    }
  }
  return found;
}

/** TF-IDF vectors, unit length. */
function vectors(list: readonly Candidate[]): Array<Map<string, number>> {
  const documentFrequency = new Map<string, number>();
  for (const candidate of list) for (const term of new Set(candidate.terms)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  return list.map((candidate) => {
    const vector = new Map<string, number>();
    for (const term of candidate.terms) vector.set(term, (vector.get(term) ?? 0) + 1);
    let norm = 0;
    for (const [term, count] of vector) {
      const weight = (count / candidate.terms.length) * (Math.log(list.length / (documentFrequency.get(term) ?? 1)) + 1);
      vector.set(term, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [term, weight] of vector) vector.set(term, weight / norm);
    return vector;
  });
}

/**
 * TextRank: PageRank over the cosine-similarity graph. Neighbours are found through an inverted
 * index; in a long document a term shared by more than a quarter of its statements links
 * nothing (its weight is small anyway), so the graph stays sparse — a 300-page book is not a
 * 10-million-pair comparison.
 */
function textRank(list: readonly Candidate[]): number[] {
  const count = list.length;
  if (count === 0) return [];
  const unit = vectors(list);
  const postings = new Map<string, number[]>();
  unit.forEach((vector, index) => {
    for (const term of vector.keys()) {
      const posting = postings.get(term);
      if (posting) posting.push(index);
      else postings.set(term, [index]);
    }
  });
  const linkLimit = count > 40 ? Math.max(40, Math.floor(count / 4)) : count;
  const edges: Array<Map<number, number>> = unit.map(() => new Map());
  unit.forEach((vector, index) => {
    const similar = edges[index] as Map<number, number>;
    for (const [term, weight] of vector) {
      const posting = postings.get(term) ?? [];
      if (posting.length > linkLimit) continue;
      for (const other of posting) {
        if (other <= index) continue;
        const otherWeight = unit[other]?.get(term) ?? 0;
        similar.set(other, (similar.get(other) ?? 0) + weight * otherWeight);
      }
    }
    for (const [other, similarity] of similar) edges[other]?.set(index, similarity);
  });
  // Only each statement's strongest links count: PageRank then runs over at most
  // 2 × neighbours × count edges instead of millions in a long, repetitive text.
  edges.forEach((edge, index) => {
    if (edge.size <= neighbours) return;
    edges[index] = new Map([...edge].sort((a, b) => b[1] - a[1]).slice(0, neighbours));
  });
  const outWeight = edges.map((edge) => [...edge.values()].reduce((sum, value) => sum + value, 0));
  let rank = new Array<number>(count).fill(1 / count);
  const damping = 0.85;
  for (let iteration = 0; iteration < 30; iteration += 1) {
    const next = new Array<number>(count).fill((1 - damping) / count);
    edges.forEach((edge, from) => {
      const total = outWeight[from] ?? 0;
      if (total === 0) {
        // A statement like no other spreads its rank evenly, so rank is not lost.
        return;
      }
      for (const [to, weight] of edge) next[to] = (next[to] ?? 0) + damping * (rank[from] ?? 0) * (weight / total);
    });
    const lost = 1 - next.reduce((sum, value) => sum + value, 0);
    rank = next.map((value) => value + lost / count);
  }
  const top = Math.max(...rank);
  return rank.map((value) => (top > 0 ? value / top : 0));
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared += 1;
  return shared / (a.size + b.size - shared || 1);
}

/** The proposed points of a document, at most `maxProposals`, in the document's order. */
export function proposePoints(document: ExtractedDocument, maxProposals: number): DocumentProposal[] {
  const list = candidates(document);
  const centrality = textRank(list);
  const scored = list.map((candidate, index) => ({
    candidate,
    score:
      centralityWeight * (centrality[index] ?? 0) +
      formWeight * candidate.form +
      (candidate.headingOverlap ? headingBonus : 0) +
      (candidate.opensSection ? openingBonus : 0),
  }));
  scored.sort((a, b) => b.score - a.score || a.candidate.order - b.candidate.order);
  // Every definition is worth proposing; past them, the central share of the rest.
  const definitions = list.filter((candidate) => candidate.form === 1).length;
  const wanted = Math.min(maxProposals, Math.max(3, definitions, Math.ceil(list.length * (list.length <= shortDocumentStatements ? shortDocumentShare : longDocumentShare))));
  const chosen: Array<{ candidate: Candidate; terms: Set<string> }> = [];
  for (const { candidate } of scored) {
    if (chosen.length >= wanted) break;
    const terms = new Set(candidate.terms);
    if (chosen.some((other) => overlap(terms, other.terms) >= duplicateOverlap)) continue;
    chosen.push({ candidate, terms });
  }
  return chosen
    .map(({ candidate }) => candidate)
    .sort((a, b) => a.order - b.order)
    .map((candidate) => ({
      content: candidate.content,
      source: {
        ...(candidate.page !== undefined ? { page: candidate.page } : {}),
        ...(candidate.heading !== undefined ? { heading: candidate.heading } : {}),
        quote: candidate.quote,
      },
    }));
}
