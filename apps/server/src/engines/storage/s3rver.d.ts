/** The parts of s3rver (a local S3-compatible server used in tests) that the tests use. */
declare module 's3rver' {
  import type { Server } from 'node:http';
  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    readonly httpServer?: Server;
  }
}
