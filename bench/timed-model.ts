// A timing shim in front of the scripted model: a tiny HTTP proxy that stamps, for every
// request, when it arrived from the agent and when the last byte of the response was handed
// back to the agent's socket. The time the proxy and the scripted server spend in between
// counts as model time, so it never inflates the agent-side figures computed from
//   agent time of iteration i = arrival(i+1) - responseEnd(i).
// test/support/scripted-model.ts stays untouched.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { startScriptedModel, type ScriptedModel, type ScriptedModelOptions } from "../test/support/scripted-model";

export interface RequestTiming {
  method: string;
  path: string;
  /** performance.now() when the request headers arrived. */
  arrival: number;
  /** performance.now() just before the complete response was written to the agent's socket (one write). */
  responseEnd: number;
  /** The client's main-thread CPU time (ms) when the request arrived and just before the response went out (see `clientCpu`). */
  cpuAtArrival: number;
  cpuAtResponseEnd: number;
  /** The request's body as sent (to tell apart the calls of the turn being measured from background ones). */
  body: string;
}

export interface TimedModel {
  /** Point the agent here (base URL including /v1). */
  readonly url: string;
  readonly model: ScriptedModel;
  /** One entry per POST, in arrival order; responseEnd is NaN until the response finished. */
  readonly timings: RequestTiming[];
  /**
   * Reads the client's main-thread CPU time in ms (e.g. readMainThreadCpuMs(pid)); set it once the
   * client runs. Read right after each arrival stamp and right before each response end stamp, so
   * cpuAtArrival(i+1) - cpuAtResponseEnd(i) is the CPU the client spent on iteration i: a figure
   * the machine's load hardly moves, unlike the wall-time gap. NaN while unset.
   */
  clientCpu?: () => number | undefined;
  close(): Promise<void>;
}

export async function startTimedModel(options: ScriptedModelOptions = {}): Promise<TimedModel> {
  const model = await startScriptedModel(options);
  const upstream = new URL(model.url);
  const upstreamAgent = new http.Agent({ keepAlive: true });
  const timings: RequestTiming[] = [];
  const cpu = () => timed.clientCpu?.() ?? NaN;

  const proxy = http.createServer((req, res) => {
    const timing: RequestTiming = { method: req.method ?? "GET", path: req.url ?? "/", arrival: performance.now(), responseEnd: NaN, cpuAtArrival: NaN, cpuAtResponseEnd: NaN, body: "" };
    timing.cpuAtArrival = cpu();
    const sent: Buffer[] = [];
    req.on("data", (chunk: Buffer) => sent.push(chunk));
    req.once("end", () => (timing.body = Buffer.concat(sent).toString("utf8")));
    if (req.method === "POST") timings.push(timing);
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
        agent: upstreamAgent,
      },
      (answer) => {
        // The whole response is collected, then handed to the agent in one write with a
        // content-length: the agent cannot act on any of it before responseEnd, so the gap
        // to the next arrival is purely agent time (with a streamed relay the agent may
        // already act on the finish chunk before the relay stamps the end).
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const body = Buffer.concat(chunks);
          const headers = { ...answer.headers, "content-length": String(body.length) };
          delete headers["transfer-encoding"];
          res.writeHead(answer.statusCode ?? 502, headers);
          // Stamped just before the write: the agent cannot see a byte earlier. Not after
          // end() nor on 'finish': on a loaded machine the write syscall wakes the agent and
          // this process can be descheduled inside it for milliseconds, which would make the
          // agent look faster than it is (a fake agent busy-waiting 2 ms measured 0.1 ms).
          timing.cpuAtResponseEnd = cpu();
          timing.responseEnd = performance.now();
          res.end(body);
        });
      },
    );
    forward.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(error));
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve, reject) => {
    proxy.once("error", reject);
    proxy.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = proxy.address() as AddressInfo;

  const timed: TimedModel = {
    url: `http://127.0.0.1:${port}/v1`,
    model,
    timings,
    async close() {
      await new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        proxy.closeAllConnections();
      });
      upstreamAgent.destroy();
      await model.close();
    },
  };
  return timed;
}
