/**
 * The peer libraries of the side-by-side benchmark, each indexing one LoCoMo conversation the way
 * its documentation shows: Orama's hybrid search (BM25 + vectors) fed engram's own static SIF
 * vectors, and MiniSearch's BM25. Both get engram's English stop-word list so question words do
 * not swamp their BM25; Orama also gets its built-in English stemmer.
 */
import { create, insertMultiple, search } from '@orama/orama';
import MiniSearch from 'minisearch';

import { STOP_WORDS } from '../../src/domain/text.js';
import type { StaticEmbedder } from '../../src/embed/static/static-embedder.js';
import type { LocomoTurn } from '../lib/locomo-data.js';

/** A searchable index of one conversation: ranked dialogue ids for a question. */
export interface PeerIndex {
  name: string;
  search(question: string, limit: number): Promise<string[]>;
}

const stopWords = [...STOP_WORDS];

/** Orama with a string field and a 100-d vector field, searched in hybrid mode. */
export async function oramaIndex(
  turns: readonly LocomoTurn[],
  embedder: StaticEmbedder,
): Promise<PeerIndex> {
  const db = create({
    schema: { dia: 'string', text: 'string', embedding: 'vector[100]' } as const,
    components: { tokenizer: { stemming: true, stopWords } },
  });
  const vectors = await embedder.embed(turns.map((t) => t.text));
  const zero = new Array<number>(100).fill(0);
  await insertMultiple(
    db,
    turns.map((t, i) => ({
      dia: t.diaId,
      text: t.text,
      embedding: vectors[i] ? Array.from(vectors[i]!) : zero,
    })),
  );
  return {
    name: 'Orama 3.1 hybrid (BM25 + engram static vectors)',
    search: async (question, limit) => {
      const [vector] = await embedder.embed([question]);
      const result = await search(db, {
        mode: 'hybrid',
        term: question,
        properties: ['text'],
        vector: { value: vector ? Array.from(vector) : zero, property: 'embedding' },
        // Orama's default keeps only vectors above cosine 0.8: SIF sentence vectors rarely are.
        similarity: 0,
        limit,
      });
      return result.hits.map((h) => (h.document as { dia: string }).dia);
    },
  };
}

/** MiniSearch over the turn text, BM25 with its default settings. */
export function miniSearchIndex(turns: readonly LocomoTurn[]): PeerIndex {
  const index = new MiniSearch<{ id: number; dia: string; text: string }>({
    fields: ['text'],
    storeFields: ['dia'],
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return STOP_WORDS.has(lower) ? null : lower;
    },
  });
  index.addAll(turns.map((t, i) => ({ id: i, dia: t.diaId, text: t.text })));
  return {
    name: 'MiniSearch 7.2 BM25',
    search: async (question, limit) =>
      index
        .search(question)
        .slice(0, limit)
        .map((r) => r.dia as string),
  };
}
