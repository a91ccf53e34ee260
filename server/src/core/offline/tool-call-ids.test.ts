import { describe, expect, it } from 'vitest';
import { offlineToolCallId, pointIdFromToolCallId } from './tool-call-ids';

describe('offline tool-call ids', () => {
  it('round-trips the point id, hyphens included', () => {
    expect(offlineToolCallId('pt_3f9c', 2)).toBe('offline-pt_3f9c-2');
    expect(pointIdFromToolCallId(offlineToolCallId('a-b-c', 3))).toBe('a-b-c');
    expect(pointIdFromToolCallId('toolu_01ABC')).toBeNull();
  });
});
