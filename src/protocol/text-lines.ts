/** The lines of a text in shared memory (a snapshot update, entries sent ahead), read in order: it is never written again. */
export class TextLines {
  private readonly text: Buffer;
  private at = 0;

  constructor(bytes: Uint8Array) {
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  next(): string {
    const end = this.end();
    const line = this.text.toString('utf8', this.at, end);
    this.at = end + 1;
    return line;
  }

  /** Whether a line is left (a text ends without a line break). */
  get more(): boolean {
    return this.at <= this.text.length;
  }

  skip(): void {
    this.at = this.end() + 1;
  }

  private end(): number {
    const end = this.text.indexOf(10, this.at);
    return end < 0 ? this.text.length : end;
  }
}
