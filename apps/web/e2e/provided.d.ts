import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    admin: { account: string; password: string };
  }
}
