import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    admin: { account: string; password: string };
    /** The fake translator's control URL (FakeServer.controlUrl) and its endpoint, as the server knows it. */
    translatorControl: string;
    translatorUrl: string;
  }
}
