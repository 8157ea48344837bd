import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients. */
  to: string[];
  /** The message as it arrived (headers and body, quoted-printable as sent). */
  raw: string;
}

/**
 * A real SMTP server on loopback for tests of mail (the standards' "real parts"): every message the
 * app's mailer delivers lands in `received`. Create it at module level, `listen()` in beforeAll (it
 * answers the smtp:// URL for the mailer) and `close()` in afterAll.
 */
export function createTestSmtp() {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => {
        raw += c.toString();
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  return {
    received,
    async listen(): Promise<string> {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const { port } = server.server.address() as { port: number };
      return `smtp://127.0.0.1:${port}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
