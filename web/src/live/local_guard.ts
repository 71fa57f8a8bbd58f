// web/src/live — who the live server answers. It listens on 127.0.0.1 only, but a browser on
// this machine makes requests for any page it shows:
//   - another site's page can send requests to it (a POST with mode 'no-cors' needs no
//     permission), though it cannot read the answers;
//   - a page whose host name is made to resolve to 127.0.0.1 (DNS rebinding) is, for the
//     browser, same-origin with its own site, and reads every answer.
// So every request must name this server in its Host (127.0.0.1:PORT or localhost:PORT: a
// rebinding page's requests carry its own host name); a request that states an Origin must
// come from this server's page; a request that changes something (Stop) must state that
// Origin and carry the session's token; and a read of the session's data (/live/info,
// /live/stream, /live/trace.nettrace: method names, exception messages, payloads) must carry
// the token too. The token is random per session and reaches the page only inside the HTML
// of / (another origin cannot read that answer, and a rebinding page never gets it). The
// data reads ask for it as well although the browser already keeps their answers from other
// sites: it also keeps the trace out of any other site's process (a no-cors load's answer
// reaches it, opaque, where sites are not isolated) and lets no other page open streams.
// Node only.

/** The header carrying the session's token; data reads may put it in the query (?token=) instead. */
export const TOKEN_HEADER = 'x-nettrace-token';

interface Request {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A refused request: the status and a line saying why. */
export interface Refusal {
  status: number;
  reason: string;
}

const one = (h: string | string[] | undefined): string | undefined => (Array.isArray(h) ? undefined : h);

/** Equal strings, compared in a time that does not depend on where they differ (the length is no secret). */
function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export class LocalGuard {
  private readonly hosts: string[];
  private readonly origins: string[];

  /**
   * @param port the port being served (on 127.0.0.1)
   * @param token the session's secret (TOKEN_HEADER)
   */
  constructor(port: number, readonly token: string) {
    this.hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    this.origins = this.hosts.map((h) => `http://${h}`);
  }

  /**
   * Why a request is refused, or null when it may be served.
   * @param changes whether it changes the session (Stop)
   * @param sessionData whether it reads the session's data
   */
  refusal(req: Request, changes: boolean, sessionData: boolean): Refusal | null {
    const host = one(req.headers['host'])?.toLowerCase();
    if (host === undefined || !this.hosts.includes(host))
      return { status: 403, reason: `this server answers only http://${this.hosts[0]}/ (Host ${host ?? 'missing'})` };
    const origin = one(req.headers['origin']);
    if (origin !== undefined && !this.origins.includes(origin.toLowerCase()))
      return { status: 403, reason: `requests from ${origin} are not served: only the page of http://${this.hosts[0]}/` };
    if (changes && origin === undefined) return { status: 403, reason: 'a request that changes the session must come from its page (no Origin)' };
    if (changes && !this.tokenIn(one(req.headers[TOKEN_HEADER]))) return { status: 403, reason: `the session's token (${TOKEN_HEADER}) is missing or wrong` };
    if (sessionData && !this.tokenIn(one(req.headers[TOKEN_HEADER]) ?? new URL(req.url ?? '/', 'http://localhost').searchParams.get('token') ?? undefined))
      return { status: 403, reason: "the session's token is missing or wrong" };
    return null;
  }

  private tokenIn(value: string | undefined): boolean {
    return value !== undefined && sameSecret(value, this.token);
  }
}
