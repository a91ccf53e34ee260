import { useEffect } from 'react';

/** Sets the tab title to "{title} — tutorloop". */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} — tutorloop` : 'tutorloop';
  }, [title]);
}
