import { Credentials, UpdateRecallSetBody } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import { fieldErrorsFromIssues, fieldErrorsFromServer, firstErrorField, issuesFromServerMessage, labelledServerMessage, plainMessage } from './form-errors';

const authField = (path: ReadonlyArray<PropertyKey>) => (path[0] === 'username' || path[0] === 'password' ? String(path[0]) : null);

describe('form errors in plain words, one per field (issue 18)', () => {
  it("turns the server's sign-up refusal into one plain message per field", () => {
    const message =
      'username: username must be at least 3 characters; username: username may contain letters, digits, "_", "." and "-"; password: password must be at least 8 characters';
    expect(fieldErrorsFromServer({ code: 'invalid_payload', message }, authField)).toEqual({
      username: 'Use at least 3 characters.',
      password: 'Use at least 8 characters.',
    });
  });

  it('gives the same messages from the shared schema before sending', () => {
    const parsed = Credentials.safeParse({ username: 'ab', password: 'short' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(fieldErrorsFromIssues(parsed.error.issues, authField)).toEqual({
      username: 'Use at least 3 characters.',
      password: 'Use at least 8 characters.',
    });
    const spaced = Credentials.safeParse({ username: 'has space', password: 'long enough' });
    if (spaced.success) throw new Error('expected a refusal');
    expect(fieldErrorsFromIssues(spaced.error.issues, authField)).toEqual({
      username: 'Use only letters, digits, “_”, “.” and “-” (no spaces).',
    });
  });

  it('keeps a refusal that names no field (wrong password, taken name, network) for the form', () => {
    expect(fieldErrorsFromServer({ code: 'unauthorized', message: 'Wrong username or password.' }, authField)).toEqual({
      form: 'Wrong username or password.',
    });
    expect(fieldErrorsFromServer({ code: 'invalid_payload', message: 'body: Invalid input' }, authField)).toEqual({ form: 'Invalid input.' });
  });

  it('reads indexed paths of the recall set editor', () => {
    const parsed = UpdateRecallSetBody.safeParse({ name: ' ', points: [{ content: 'ok' }, { content: '  ' }] });
    if (parsed.success) throw new Error('expected a refusal');
    const errors = fieldErrorsFromIssues(parsed.error.issues, (path) =>
      path[0] === 'points' && typeof path[1] === 'number' ? `points.${path[1]}.${String(path[2] ?? 'content')}` : String(path[0]),
    );
    expect(errors).toEqual({ name: 'This cannot be empty.', 'points.1.content': 'This cannot be empty.' });
    expect(firstErrorField(errors, ['name', 'points.1.content'])).toBe('name');
    expect(issuesFromServerMessage('points.3.content: point content is empty')).toEqual([{ path: ['points', 3, 'content'], message: 'point content is empty' }]);
  });

  it('words unknown messages as a sentence', () => {
    expect(plainMessage('that username is taken')).toBe('That username is taken.');
    expect(plainMessage('Too big: expected string to have <=120 characters')).toBe('Use at most 120 characters.');
  });
});

describe('a refusal led by the field’s label, not its API name (issue 25)', () => {
  it('says "Current password: …" for the server’s currentPassword refusal', () => {
    const labels = { currentPassword: 'Current password', newPassword: 'New password' };
    expect(labelledServerMessage({ code: 'invalid_payload', message: 'currentPassword: that is not your current password.' }, labels)).toBe('Current password: that is not your current password.');
    expect(labelledServerMessage({ code: 'rate_limited', message: 'Too many attempts. Retry in 4 s.' }, labels)).toBe('Too many attempts. Retry in 4 s.');
  });
});
