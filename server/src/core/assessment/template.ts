/**
 * Stem templates: `{name}` placeholders replaced by generated values, and nothing else — no
 * expressions, no escapes — so a blueprint file can never make the server compute anything.
 */
const placeholderPattern = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;

export function placeholdersIn(template: string): string[] {
  return [...template.matchAll(placeholderPattern)].map((match) => match[1] ?? '');
}

export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(placeholderPattern, (whole, name: string) => {
    const value = values[name];
    // The catalog has checked every placeholder against the generator at load.
    if (value === undefined) throw new Error(`template placeholder {${name}} has no value`);
    return value;
  });
}
