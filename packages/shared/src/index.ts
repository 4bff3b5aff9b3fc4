export * from './languages.ts';
export * from './errors.ts';
export * from './envelope.ts';
export * from './validation.ts';
export * from './auth.ts';
export * from './books.ts';
export * from './reader.ts';
export * from './ai.ts';
