import { describe, expect, it } from 'vitest';

import { canonicalDiaId, normaliseEvidence, sessionTime, turnText } from './locomo-data.js';

const turns = new Set(['D8:6', 'D9:17', 'D11:26', 'D30:5', 'D1:18', 'D1:20', 'D4:4', 'D9:1']);

describe('normaliseEvidence', () => {
  it('splits an entry that holds several ids', () => {
    const out = normaliseEvidence(['D8:6; D9:17'], turns);
    expect(out.ids).toEqual(['D8:6', 'D9:17']);
    expect(out.notes).toEqual([{ raw: 'D8:6; D9:17', action: 'split', result: ['D8:6', 'D9:17'] }]);
    expect(normaliseEvidence(['D9:1 D4:4'], turns).ids).toEqual(['D9:1', 'D4:4']);
  });

  it('repairs "D:11:26" and a zero-padded turn', () => {
    expect(normaliseEvidence(['D:11:26'], turns)).toEqual({
      ids: ['D11:26'],
      notes: [{ raw: 'D:11:26', action: 'repaired', result: ['D11:26'] }],
    });
    expect(normaliseEvidence(['D30:05'], turns).ids).toEqual(['D30:5']);
  });

  it('drops a bare "D" and ids naming turns that do not exist, and says so', () => {
    const out = normaliseEvidence(['D1:18', 'D', 'D1:20', 'D10:19'], turns);
    expect(out.ids).toEqual(['D1:18', 'D1:20']);
    expect(out.notes).toEqual([
      { raw: 'D', action: 'dropped_malformed' },
      { raw: 'D10:19', action: 'dropped_unknown_turn' },
    ]);
  });

  it('keeps well-formed ids untouched and collapses duplicates', () => {
    expect(normaliseEvidence(['D8:6', 'D8:6', 'D08:06'], turns)).toEqual({
      ids: ['D8:6'],
      notes: [{ raw: 'D08:06', action: 'repaired', result: ['D8:6'] }],
    });
    expect(normaliseEvidence([], turns)).toEqual({ ids: [], notes: [] });
  });
});

describe('canonicalDiaId and turnText', () => {
  it('reads only D<session>:<turn> forms', () => {
    expect(canonicalDiaId(' D3:07 ')).toBe('D3:7');
    expect(canonicalDiaId('D')).toBeNull();
    expect(canonicalDiaId('X3:4')).toBeNull();
  });

  it('writes the paper item text, with the image caption when there is one', () => {
    expect(turnText('Mel', 'Hi!')).toBe('Mel said, "Hi!"');
    expect(turnText('Mel', 'Look.', 'a photo of a dog')).toBe(
      'Mel said, "Look." and shared a photo of a dog',
    );
  });
});

describe('sessionTime', () => {
  it("reads the release's session dates as UTC", () => {
    expect(sessionTime('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00.000Z');
    expect(sessionTime('12:09 am on 13 September, 2023')).toBe('2023-09-13T00:09:00.000Z');
    expect(sessionTime('12:30 pm on 1 January, 2024')).toBe('2024-01-01T12:30:00.000Z');
  });

  it('gives nothing for a missing or unreadable date', () => {
    expect(sessionTime(undefined)).toBeUndefined();
    expect(sessionTime('yesterday')).toBeUndefined();
    expect(sessionTime('1:56 pm on 8 Maytember, 2023')).toBeUndefined();
  });
});
