// Types for the parts of s3rver 3.7 (no typings of its own) that lib/blobs/s3-test-server.ts uses.
declare module "s3rver" {
  import type { AddressInfo } from "node:net";

  interface TS3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  export default class S3rver {
    constructor(options?: TS3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
