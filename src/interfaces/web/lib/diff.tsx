/**
 * Word diffs of memory text (jsdiff's diffWords): the parts of two texts, and a view that marks
 * what was added and removed, in colour and in words for screen readers.
 */
import { diffWords } from 'diff';

/** One run of a diff: text both versions share, or text only one of them has. */
export interface DiffPart {
  text: string;
  change: 'same' | 'added' | 'removed';
}

/** The word diff of `before` and `after`, as runs in reading order. */
export function wordDiff(before: string, after: string): DiffPart[] {
  return diffWords(before, after).map((c) => ({
    text: c.value,
    change: c.added ? 'added' : c.removed ? 'removed' : 'same',
  }));
}

/** Whether a diff changes anything. */
export function changed(parts: readonly DiffPart[]): boolean {
  return parts.some((p) => p.change !== 'same');
}

/**
 * The word diff of two texts: removed words struck through, added words underlined, each marked
 * "removed:" / "added:" for assistive technology.
 */
export function WordDiff(props: { before: string; after: string }) {
  const parts = wordDiff(props.before, props.after);
  return (
    <p class="word-diff">
      {parts.map((p, i) =>
        p.change === 'same' ? (
          <span key={i}>{p.text}</span>
        ) : p.change === 'added' ? (
          <ins key={i}>
            <span class="visually-hidden">[added: </span>
            {p.text}
            <span class="visually-hidden">]</span>
          </ins>
        ) : (
          <del key={i}>
            <span class="visually-hidden">[removed: </span>
            {p.text}
            <span class="visually-hidden">]</span>
          </del>
        ),
      )}
    </p>
  );
}
