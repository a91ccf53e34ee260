import { describe, expect, it } from 'vitest';
import { parseClientMessage, parseServerEvent } from './ws';

describe('stop and retry frames (SPEC §5)', () => {
  it('parses a stop with an empty payload', () => {
    expect(parseClientMessage('{"type":"stop","payload":{}}')).toEqual({ ok: true, value: { type: 'stop', payload: {} } });
  });

  it('parses a retry naming the reply to produce again', () => {
    expect(parseClientMessage('{"type":"retry","payload":{"messageId":"m-7"}}')).toEqual({ ok: true, value: { type: 'retry', payload: { messageId: 'm-7' } } });
  });

  it('refuses a retry without a message id, naming the field', () => {
    expect(parseClientMessage('{"type":"retry","payload":{}}')).toEqual({
      ok: false,
      error: { code: 'invalid_payload', message: 'Invalid retry payload: payload.messageId: Invalid input: expected string, received undefined' },
    });
    expect(parseClientMessage('{"type":"retry","payload":{"messageId":""}}')).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
  });

  it('lists stop and retry among the known types', () => {
    const result = parseClientMessage('{"type":"halt","payload":{}}');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain('stop, retry');
  });

  it('reads an assistant event marked stopped or replacing an earlier reply', () => {
    expect(parseServerEvent('{"type":"assistant","payload":{"messageId":"a","message":"Half a th","stopped":true}}')).toEqual({
      type: 'assistant',
      payload: { messageId: 'a', message: 'Half a th', stopped: true },
    });
    expect(parseServerEvent('{"type":"assistant","payload":{"messageId":"b","message":"Again.","replaces":"a"}}')).toEqual({
      type: 'assistant',
      payload: { messageId: 'b', message: 'Again.', replaces: 'a' },
    });
  });

  it('reads the new error codes', () => {
    expect(parseServerEvent('{"type":"error","payload":{"code":"nothing_to_stop","message":"No reply is being written."}}')).not.toBeNull();
    expect(parseServerEvent('{"type":"error","payload":{"code":"nothing_to_retry","message":"x"}}')).not.toBeNull();
  });
});
