// The part of autocannon 8's API the benchmark uses. DefinitelyTyped's @types/autocannon stops at
// autocannon 7; these names follow it.
declare module 'autocannon' {
  namespace autocannon {
    /** One request as autocannon sends it; setupRequest may return a changed copy. */
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface RequestOptions extends Request {
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    }

    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds without a response before a request counts as a timeout. */
      timeout?: number;
      requests?: RequestOptions[];
      /** Requests per second over all connections. */
      overallRate?: number;
    }

    /** A histogram summary; latencies in ms, request rates per second. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      /** Seconds the run lasted. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
      statusCodeStats?: Record<string, { count: number }>;
      latency: Histogram;
      requests: Histogram;
      throughput: Histogram;
    }

    interface Instance {
      stop(): void;
      /** Every response: the client, its status, its size in bytes and its latency in ms. */
      on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): this;
    }
  }

  function autocannon(options: autocannon.Options, callback: (err: Error | null, result: autocannon.Result) => void): autocannon.Instance;

  export = autocannon;
}
