/** Deckhand's words in each reader's language: see `translate.ts` and `languages.ts`. */
export * from './languages';
export * from './translate';
