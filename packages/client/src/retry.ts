// Retries of a request the server refused for now: 429 (rate limits) after its Retry-After, and 503
// (the service briefly unavailable) after its Retry-After or a growing pause; both bounded.

export interface RetryOptions {
  /** Retries after the first attempt (default 3); 0 turns retrying off. */
  readonly retries?: number;
  /** The longest wait before a retry, in ms (default 60,000): a 429 asking for longer (a daily limit) is returned at once. */
  readonly maxDelayMs?: number;
  /** The first pause when a reply has no Retry-After, doubled on each retry (default 250 ms). */
  readonly baseDelayMs?: number;
  /** Told of each retry before its pause, e.g. to log it. */
  readonly onRetry?: (info: { attempt: number; status: number; delayMs: number; url: string }) => void;
  /** How to wait; tests pass one that does not. */
  readonly sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A fetch that retries 429 and 503 replies as `options` say; the last reply is returned as it is. */
export function retryingFetch(base: (input: Request) => Promise<Response>, options: RetryOptions = {}): (input: Request) => Promise<Response> {
  const retries = options.retries ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const sleep = options.sleep ?? wait;
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      // A clone per attempt: a body can be read once.
      const response = await base(attempt > retries ? request : request.clone());
      if ((response.status !== 429 && response.status !== 503) || attempt > retries) return response;
      const given = retryAfterMs(response.headers.get('retry-after'));
      const delayMs = given ?? baseDelayMs * 2 ** (attempt - 1);
      if (delayMs > maxDelayMs) return response;
      await response.body?.cancel();
      options.onRetry?.({ attempt, status: response.status, delayMs, url: request.url });
      await sleep(delayMs);
    }
  };
}
