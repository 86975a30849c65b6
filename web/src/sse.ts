// A Server-Sent Events parser for streams read with fetch(). EventSource
// cannot send an Authorization header, so the UI reads event streams
// itself and keeps the Last-Event-ID on its own.

export interface SSEMessage {
  id: string; // "" when the message carries none (notices)
  event: string;
  data: string;
}

export class SSEParser {
  private buf = "";
  private id = "";
  private event = "";
  private data: string[] = [];

  constructor(private readonly onMessage: (m: SSEMessage) => void) {}

  // feed takes the next chunk of the stream's text.
  feed(chunk: string): void {
    this.buf += chunk;
    let nl: number;
    while ((nl = this.nextBreak()) >= 0) {
      let line = this.buf.slice(0, nl);
      const skip = this.buf[nl] === "\r" && this.buf[nl + 1] === "\n" ? 2 : 1;
      this.buf = this.buf.slice(nl + skip);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      this.line(line);
    }
  }

  private nextBreak(): number {
    const n = this.buf.indexOf("\n");
    const r = this.buf.indexOf("\r");
    if (r >= 0 && (n < 0 || r < n)) {
      // A lone "\r" at the end may be the first half of "\r\n".
      return r === this.buf.length - 1 ? -1 : r;
    }
    return n;
  }

  private line(line: string): void {
    if (line === "") {
      if (this.data.length > 0) {
        this.onMessage({ id: this.id, event: this.event || "message", data: this.data.join("\n") });
      }
      this.id = "";
      this.event = "";
      this.data = [];
      return;
    }
    if (line.startsWith(":")) return; // comment (keep-alive)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "id":
        this.id = value;
        break;
      case "event":
        this.event = value;
        break;
      case "data":
        this.data.push(value);
        break;
    }
  }
}

// readSSE reads a response body to its end, handing each message on.
export async function readSSE(body: ReadableStream<Uint8Array>, onMessage: (m: SSEMessage) => void): Promise<void> {
  const parser = new SSEParser(onMessage);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        parser.feed(decoder.decode());
        return;
      }
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
}
