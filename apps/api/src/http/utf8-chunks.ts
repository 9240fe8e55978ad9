// Text written straight into UTF-8 buffers of about CHUNK_BYTES each, for the streamed exports.
// Building a page's text by concatenation and handing Node the string cost a flattening of the
// whole concatenation and a second pass to encode it: at 50,000 guests that was the exports' largest
// single cost, and every page's concatenation lived on through several young-generation collections.

const CHUNK_BYTES = 64 * 1024;

/** Collects text; a full buffer is handed on at the next {@link Utf8Chunks.flush}. */
export class Utf8Chunks {
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private readonly full: Buffer[] = [];

  constructor(private readonly write: (chunk: Buffer) => Promise<void>) {}

  /** Adds text (any length) to the current buffer, starting a new one when it might not fit. */
  add(text: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    if (this.used + text.length * 3 > CHUNK_BYTES) {
      this.close();
      if (text.length * 3 > CHUNK_BYTES) {
        this.full.push(Buffer.from(text));
        return;
      }
    }
    this.used += this.buffer.write(text, this.used);
  }

  /** Hands on the buffers filled so far, the current one too when `all`, in order. */
  async flush(all = false): Promise<void> {
    if (all) this.close();
    for (const chunk of this.full.splice(0)) await this.write(chunk);
  }

  private close(): void {
    if (this.used === 0) return;
    this.full.push(this.buffer.subarray(0, this.used));
    this.buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
  }
}
