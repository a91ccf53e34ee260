import { describe, expect, it } from 'vitest';
import { SafetyReasons, checkSafetyOffline } from './offline-safety';

describe('checkSafetyOffline', () => {
  it('flags clear self-harm statements', () => {
    for (const msg of ['I want to kill myself', 'honestly i’m going to END MY LIFE', 'I have been cutting myself again', 'I want to die', 'I am suicidal']) {
      expect(checkSafetyOffline(msg), msg).toEqual({ safe: false, reason: SafetyReasons.selfHarm });
    }
  });

  it('flags clear threats against people', () => {
    for (const msg of ["I'm going to kill my teacher", 'i will stab him tomorrow', 'im gonna shoot up the school']) {
      expect(checkSafetyOffline(msg), msg).toEqual({ safe: false, reason: SafetyReasons.violence });
    }
  });

  it('keeps normal study chat safe, violent vocabulary included', () => {
    for (const msg of [
      'Brutus stabbed Caesar in 44 BC',
      'The Manhattan Project built the atomic bomb',
      'How do I kill a process in Linux?',
      "I'm going to kill this exam tomorrow",
      'Durkheim wrote a famous study of suicide rates',
      'The mitochondria produce ATP through oxidative phosphorylation',
      'I hurt myself playing football last week, sorry I missed class',
      'This question is killing me, can I get a hint?',
      '',
    ]) {
      expect(checkSafetyOffline(msg), msg).toEqual({ safe: true });
    }
  });
});
