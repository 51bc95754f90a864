/**
 * The reporters' checklist answers of an incident as they are shown (the incident view) and printed (the
 * work order): grouped by report, oldest first (the answers of one report share its time), each in
 * words: yes/no in the reader's language, numbers in their notation, text as written.
 */
import { numberFormat } from "./intl";

export interface AnswerLike {
  position: number;
  question: string;
  contentType: number;
  answer: string | null;
  reportedAt: string;
}

export interface ReportAnswers<A extends AnswerLike> {
  reportedAt: string;
  answers: A[];
}

export function answersByReport<A extends AnswerLike>(answers: readonly A[]): ReportAnswers<A>[] {
  const reports = new Map<string, A[]>();
  for (const answer of [...answers].sort((a, b) => a.reportedAt.localeCompare(b.reportedAt) || a.position - b.position)) {
    const list = reports.get(answer.reportedAt) ?? [];
    list.push(answer);
    reports.set(answer.reportedAt, list);
  }
  return [...reports].map(([reportedAt, list]) => ({ reportedAt, answers: list }));
}

/** Content types of a checklist question (incident types): yes/no, text, number, message. */
const YES_NO = 0;
const NUMBER = 2;

/** An answer in words; null when there is none (or it is a photo, shown as such). */
export function answerText(answer: Pick<AnswerLike, "contentType" | "answer">, words: { yes: string; no: string }, locale: string): string | null {
  const value = answer.answer;
  if (value === null || value === "") return null;
  if (answer.contentType === YES_NO) return value === "true" || value === "yes" ? words.yes : value === "false" || value === "no" ? words.no : value;
  if (answer.contentType === NUMBER && /^-?\d{1,12}([.,]\d{1,6})?$/.test(value)) return numberFormat(locale).format(Number(value.replace(",", ".")));
  return value;
}
