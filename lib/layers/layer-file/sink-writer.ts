/**
 * A hyparquet-writer `Writer` that hands the file to an asynchronous byte sink in chunks of
 * about 1 MiB while it is being written. `ParquetWriter` awaits `flush()` after each row group,
 * so a slow sink (an upload) holds the writer back there: at most one row group's output plus
 * one chunk is held in memory. `finish()` sends the rest and resolves once the sink took it.
 */
import { ByteWriter } from "hyparquet-writer";

/** Receives the file's bytes in order; the chunk is the sink's to keep. A returned promise is awaited before more is sent. */
export type TAsyncByteSink = (chunk: Uint8Array) => Promise<void> | void;

const CHUNK_BYTES = 1 << 20;

export class SinkByteWriter extends ByteWriter {
  private pending: Uint8Array[] = [];

  constructor(private readonly sink: TAsyncByteSink) {
    super(CHUNK_BYTES + (CHUNK_BYTES >> 2));
  }

  override ensure(size: number): void {
    if (this.index >= CHUNK_BYTES) this.moveOut();
    super.ensure(size);
  }

  private moveOut(): void {
    if (this.index === 0) return;
    this.pending.push(new Uint8Array(this.buffer.slice(0, this.index)));
    this.index = 0;
  }

  /** Sends the complete chunks gathered so far (the partial one stays for the next row group). */
  async flush(): Promise<void> {
    const chunks = this.pending;
    this.pending = [];
    for (const chunk of chunks) await this.sink(chunk);
  }

  /** Sends everything that is left. */
  override async finish(): Promise<void> {
    this.moveOut();
    await this.flush();
  }
}
