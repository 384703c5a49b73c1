/**
 * The LoCoMo data set as the retrieval benchmarks read it: conversations flattened into dialogue
 * turns with the paper's item text, questions with normalised evidence ids, and an account of the
 * evidence ids that could not be used. The data is read from ../shared at run time and never
 * copied into the repository (CC BY-NC 4.0, evaluation only).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the benchmark data lives unless LOCOMO_PATH says otherwise. */
export const DEFAULT_LOCOMO_PATH = resolve(
  join(import.meta.dirname, '..', '..', '..', 'shared', 'bench', 'locomo', 'locomo10.json'),
);

/** Question categories of the release, by number. */
export const CATEGORY_NAMES: Readonly<Record<number, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

/** One dialogue turn as a benchmark item. */
export interface LocomoTurn {
  /** `D<session>:<turn>`. */
  diaId: string;
  session: number;
  turn: number;
  speaker: string;
  /** The paper's item text: `<speaker> said, "<text>"` plus ` and shared <caption>`. */
  text: string;
  /** When the turn's session took place (ISO 8601, UTC), when the release gives it. */
  time?: string;
}

/** One question with its usable evidence. */
export interface LocomoQuestion {
  question: string;
  category: number;
  evidence: string[];
}

/** One conversation: its turns in order and its questions. */
export interface LocomoConversation {
  sampleId: string;
  /** 1-based position in the release. */
  index: number;
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
}

/** An evidence id that was repaired or dropped, for the report. */
export interface EvidenceNote {
  sampleId: string;
  question: string;
  raw: string;
  action: 'split' | 'repaired' | 'dropped_malformed' | 'dropped_unknown_turn';
  result?: string[];
}

/** The loaded data set. */
export interface LocomoData {
  conversations: LocomoConversation[];
  notes: EvidenceNote[];
}

/** The outcome of normalising one question's evidence list. */
export interface NormalisedEvidence {
  ids: string[];
  notes: Omit<EvidenceNote, 'sampleId' | 'question'>[];
}

const ID_RE = /^D:?(\d+):(\d+)$/;

/** The canonical `D<s>:<t>` form of one id piece, or null when it cannot be read as one. */
export function canonicalDiaId(piece: string): string | null {
  const match = ID_RE.exec(piece.trim());
  if (!match) return null;
  return `D${Number(match[1])}:${Number(match[2])}`;
}

/**
 * Normalises raw evidence ids against the turns that exist: entries holding several ids
 * ("D8:6; D9:17", "D9:1 D4:4") are split, "D:11:26" and "D30:05" are repaired to "D11:26" and
 * "D30:5", unreadable ids (a bare "D") and ids naming no turn are dropped; duplicates collapse.
 */
export function normaliseEvidence(
  raw: readonly unknown[],
  turns: ReadonlySet<string>,
): NormalisedEvidence {
  const ids = new Set<string>();
  const notes: NormalisedEvidence['notes'] = [];
  for (const entry of raw) {
    const text = String(entry);
    const pieces = text.split(/[;,\s]+/u).filter((p) => p !== '');
    if (pieces.length > 1) notes.push({ raw: text, action: 'split', result: pieces });
    if (pieces.length === 0) notes.push({ raw: text, action: 'dropped_malformed' });
    for (const piece of pieces) {
      const id = canonicalDiaId(piece);
      if (id === null) notes.push({ raw: piece, action: 'dropped_malformed' });
      else if (!turns.has(id)) notes.push({ raw: piece, action: 'dropped_unknown_turn' });
      else {
        if (id !== piece) notes.push({ raw: piece, action: 'repaired', result: [id] });
        ids.add(id);
      }
    }
  }
  return { ids: [...ids], notes };
}

/** The paper's item text for one turn. */
export function turnText(speaker: string, text: string, caption?: string): string {
  const said = `${speaker} said, "${text}"`;
  return caption !== undefined && caption !== '' ? `${said} and shared ${caption}` : said;
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; category: number; evidence?: unknown[] }[];
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * A session's `session_<n>_date_time` ("1:56 pm on 8 May, 2023") as ISO 8601 in UTC (the release
 * gives no zone), or undefined when it is missing or not in that form.
 */
export function sessionTime(raw: unknown): string | undefined {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) ([A-Za-z]+),? (\d{4})$/iu.exec(
    String(raw ?? '').trim(),
  );
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[5]!.toLowerCase());
  if (month < 0) return undefined;
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  const at = Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
  return new Date(at).toISOString();
}

function sessionTurns(conversation: Record<string, unknown>): LocomoTurn[] {
  const sessions = Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  return sessions.flatMap((session) =>
    (conversation[`session_${session}`] as RawTurn[]).map((t, i) => {
      const time = sessionTime(conversation[`session_${session}_date_time`]);
      const diaId = canonicalDiaId(t.dia_id) ?? t.dia_id;
      const turn = Number(diaId.split(':')[1] ?? i + 1);
      return {
        diaId,
        session,
        turn,
        speaker: t.speaker,
        text: turnText(t.speaker, t.text, t.blip_caption),
        ...(time !== undefined && { time }),
      };
    }),
  );
}

function toConversation(sample: RawSample, index: number, notes: EvidenceNote[]) {
  const turns = sessionTurns(sample.conversation);
  const known = new Set(turns.map((t) => t.diaId));
  const questions = sample.qa.map((qa) => {
    const evidence = normaliseEvidence(qa.evidence ?? [], known);
    for (const note of evidence.notes)
      notes.push({ sampleId: sample.sample_id, question: qa.question, ...note });
    return { question: qa.question, category: qa.category, evidence: evidence.ids };
  });
  return { sampleId: sample.sample_id, index, turns, questions };
}

/** Reads and prepares the LoCoMo release (LOCOMO_PATH, else the shared copy). */
export function loadLocomo(path = process.env.LOCOMO_PATH ?? DEFAULT_LOCOMO_PATH): LocomoData {
  const samples = JSON.parse(readFileSync(path, 'utf8')) as RawSample[];
  const notes: EvidenceNote[] = [];
  const conversations = samples.map((s, i) => toConversation(s, i + 1, notes));
  return { conversations, notes };
}

/** Conversations whose 1-based index is in `indices`. */
export function selectConversations(
  data: LocomoData,
  indices: readonly number[],
): LocomoConversation[] {
  return data.conversations.filter((c) => indices.includes(c.index));
}
