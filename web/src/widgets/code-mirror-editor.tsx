// Loaded lazily (React.lazy in code-editor.tsx): CodeMirror stays out of the first page.
import CodeMirror, { EditorState, EditorView, keymap, Prec, type Extension } from '@uiw/react-codemirror';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { useColorScheme } from '../hooks/use-theme';

export interface CodeMirrorEditorProps {
  value: string;
  onChange(value: string): void;
  /** The language support from `loadLanguage`. */
  language: Extension;
  /** Spaces per indentation level (Tab, and the indent after a new line). */
  indentSize: number;
  /** Accessible name of the editable area (it has role `textbox`). */
  label: string;
  /** Id of the keyboard hint. */
  describedBy?: string;
  maxLength: number;
  /** Ctrl/⌘+Enter. */
  onSubmitShortcut?(): void;
  /** Take the focus on mount (the widget is the next thing to do, or the plain editor had it). */
  autoFocus?: boolean;
  /** The plain editor shown while this one loads reports its focus here. */
  onFocusChange?(focused: boolean): void;
}

// No autocompletion: it would hint during an assessment, and a popup would swallow Enter.
const setup = {
  autocompletion: false,
  foldGutter: false,
  searchKeymap: false,
  highlightSelectionMatches: false,
} as const;

/** The basic setup with the language's indentation (`tabSize` also sets CodeMirror's indent unit). */
function setupFor(indentSize: number) {
  return { ...setup, tabSize: indentSize };
}

/** CodeMirror 6 with the page's look, a length limit and a submit shortcut. */
export default function CodeMirrorEditor({
  value,
  onChange,
  language,
  indentSize,
  label,
  describedBy,
  maxLength,
  onSubmitShortcut,
  autoFocus,
}: CodeMirrorEditorProps) {
  // Settings' explicit Light/Dark wins over the device's scheme, as it does for the stylesheet.
  const scheme = useColorScheme();
  // The keymap is built once; it calls the latest handler through this ref.
  const submitRef = useRef(onSubmitShortcut);
  useLayoutEffect(() => {
    submitRef.current = onSubmitShortcut;
  });

  const extensions = useMemo(
    () => [
      language,
      EditorView.contentAttributes.of({
        'aria-label': label,
        ...(describedBy !== undefined && { 'aria-describedby': describedBy }),
        spellcheck: 'false',
        autocapitalize: 'off',
        autocorrect: 'off',
      }),
      // A change that would make the code too long is dropped whole, as a textarea's maxlength does.
      EditorState.transactionFilter.of((transaction) =>
        transaction.docChanged && transaction.newDoc.length > maxLength ? [] : transaction,
      ),
      Prec.highest(
        keymap.of([
          {
            key: 'Mod-Enter',
            run: () => {
              submitRef.current?.();
              return true;
            },
          },
        ]),
      ),
    ],
    [language, label, describedBy, maxLength],
  );

  const basicSetup = useMemo(() => setupFor(indentSize), [indentSize]);

  return (
    <CodeMirror
      className="code-mirror"
      value={value}
      onChange={onChange}
      extensions={extensions}
      basicSetup={basicSetup}
      theme={scheme}
      minHeight="12rem"
      maxHeight="28rem"
      autoFocus={autoFocus}
    />
  );
}
