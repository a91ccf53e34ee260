import type { CodeLanguage } from '@tutorloop/shared';
import type { Extension } from '@uiw/react-codemirror';

/** Display names of the code editor's languages. */
export const languageNames: Record<CodeLanguage, string> = { python: 'Python', javascript: 'JavaScript' };

function assertNever(value: never): never {
  throw new Error(`Unhandled language: ${JSON.stringify(value)}`);
}

/** The CodeMirror language support, each in its own chunk: a Python item never loads JavaScript. */
export async function loadLanguage(language: CodeLanguage): Promise<Extension> {
  switch (language) {
    case 'python':
      return (await import('@codemirror/lang-python')).python();
    case 'javascript':
      return (await import('@codemirror/lang-javascript')).javascript();
    default:
      return assertNever(language);
  }
}
