// web_fetch against real local HTTP servers: pages to markdown, JSON, PDF, charsets, caps,
// redirects, and the SSRF guard (127.0.0.1 is reachable only because the test's settings list
// it in web.allow_private; without that it is refused before any request is sent).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { after, before, beforeEach, describe, test } from "node:test";
import { WebConfigSchema } from "../../acp-server/config/web-schema";
import { webFetchTool } from "../../acp-server/tools/web-fetch";
import { setWebSettings } from "../../acp-server/tools/web/web-settings";
import { registerSecretValue, clearSecretValues } from "../../acp-server/util/secret-values";
import { recordingContext, type RecordingContext } from "../support/tool-context";
import { startServer, tinyPdf, type TestServer } from "../support/web-servers";

const ARTICLE = `<!doctype html><html><head><title>Release notes · Example</title><meta charset="utf-8"></head><body>
<nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
<article><h1>Version 2 is out</h1>
<p>Version 2 brings a faster parser, a <a href="/docs/upgrade">migration guide</a> and many fixes that users asked for over the last year of development work.</p>
<p>Read the <a href="https://other.example/changelog">full changelog</a> for every change. The upgrade takes a few minutes for most projects, and the old API keeps working.</p>
<table><tr><th>Feature</th><th>Status</th></tr><tr><td>Parser</td><td>faster</td></tr></table>
<pre><code>npm install example@2</code></pre>
</article><footer>© Example</footer><script>window.tracking = true</script></body></html>`;

const TLS = path.join(import.meta.dirname, "..", "fixtures", "tls");
let server: TestServer;
let slowStarted: () => void = () => {};

function configure(overrides: Record<string, unknown> = {}) {
  setWebSettings(WebConfigSchema.parse({ allow_private: ["127.0.0.1"], ...overrides }), {});
}

async function fetchPage(args: { url: string; offset?: number; whole_page?: boolean }, context?: RecordingContext) {
  const ctx = context ?? recordingContext({ cwd: "/tmp" });
  const result = await webFetchTool.handler(args, ctx);
  return { ...result, text: result.output as string, ctx };
}

before(async () => {
  server = await startServer({
    "/article": (_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE),
    "/json": (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"name":"hermes","tags":["a","b"]}'),
    "/text": (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("plain words"),
    "/gzip": (_req, res) => res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end(gzipSync("compressed words")),
    "/pdf": (_req, res) => res.writeHead(200, { "content-type": "application/pdf" }).end(tinyPdf("Hello from a PDF", "A Small Report")),
    "/broken.pdf": (_req, res) => res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4 this is not really a pdf"),
    "/image": (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0])),
    "/latin1": (_req, res) => res.writeHead(200, { "content-type": "text/plain; charset=windows-1252" }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9])),
    "/sjis-meta": (_req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(Buffer.concat([Buffer.from('<html><head><meta charset="shift_jis"><title>t</title></head><body><p>'), Buffer.from([0x93, 0xfa, 0x96, 0x7b]), Buffer.from("</p></body></html>")])),
    "/bad-charset": (_req, res) => res.writeHead(200, { "content-type": "text/plain; charset=klingon-8" }).end("still readable ✓"),
    "/huge": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "x".repeat(64 * 1024);
      // Endless: only the client's cap ends it.
      const write = () => {
        while (res.write(chunk)) {
          /* keep the socket full */
        }
      };
      res.on("drain", write);
      write();
    },
    "/slow": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first part, then silence");
      slowStarted();
    },
    "/redirect-local": (_req, res) => res.writeHead(302, { location: "/article" }).end(),
    "/redirect-metadata": (_req, res) => res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
    "/redirect-ipv6-loopback": (_req, res) => res.writeHead(301, { location: `http://[::1]:${server.port}/article` }).end(),
    "/redirect-decimal": (_req, res) => res.writeHead(307, { location: `http://2130706434:${server.port}/article` }).end(),
    "/redirect-mapped": (_req, res) => res.writeHead(308, { location: `http://[::ffff:10.0.0.1]:${server.port}/article` }).end(),
    "/redirect-localhost": (_req, res) => res.writeHead(302, { location: `http://localhost:${server.port}/article` }).end(),
    "/redirect-file": (_req, res) => res.writeHead(302, { location: "file:///etc/passwd" }).end(),
    "/loop": (_req, res) => res.writeHead(302, { location: "/loop" }).end(),
    "/missing-page": (_req, res) => res.writeHead(404, { "content-type": "text/plain" }).end("no such page"),
    "/long": (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("a".repeat(45_000) + "THE-END"),
  });
});

after(async () => {
  await server.close();
  clearSecretValues();
  configure({ allow_private: [] });
});

beforeEach(() => configure());

describe("web_fetch: content", () => {
  test("an HTML page becomes markdown: the article, its title, absolute links, a table; scripts and navigation gone", async () => {
    const { text, content, ctx } = await fetchPage({ url: `${server.origin}/article` });
    assert.match(text, /^Title: Release notes · Example$/m);
    assert.match(text, new RegExp(`^URL: ${server.origin}/article$`, "m"));
    assert.match(text, /Status: 200/);
    assert.ok(text.includes(`[migration guide](${server.origin}/docs/upgrade)`), text);
    assert.ok(text.includes("[full changelog](https://other.example/changelog)"));
    assert.match(text, /\| Feature \| Status \|\n\| --- \| --- \|\n\| Parser \| faster \|/);
    assert.match(text, /```\nnpm install example@2\n```/);
    assert.ok(!text.includes("tracking"), "script content leaked");
    assert.ok(!text.includes("[Blog]"), "navigation kept");
    // The card: a link to the page with its title, and the start of the text.
    assert.deepEqual(content?.[0], { type: "resource_link", uri: `${server.origin}/article`, name: "Release notes · Example", title: "Release notes · Example", mimeType: "text/html" });
    assert.equal(ctx.progressUpdates.at(-1)?.title, "Fetch Release notes · Example");
    // One permission ask for the host, carrying it.
    assert.deepEqual(ctx.asks.map((ask) => ask.web), [{ host: "127.0.0.1", url: `${server.origin}/article` }]);
  });

  test("whole_page converts everything, navigation included", async () => {
    const { text } = await fetchPage({ url: `${server.origin}/article`, whole_page: true });
    assert.ok(text.includes(`[Blog](${server.origin}/blog)`), text);
    assert.ok(!text.includes("tracking"));
  });

  test("JSON is pretty-printed, text stays text, gzip is decoded", async () => {
    assert.match((await fetchPage({ url: `${server.origin}/json` })).text, /\{\n {2}"name": "hermes",\n {2}"tags": \[/);
    assert.match((await fetchPage({ url: `${server.origin}/text` })).text, /\n\nplain words$/);
    assert.match((await fetchPage({ url: `${server.origin}/gzip` })).text, /\n\ncompressed words$/);
  });

  test("a PDF gives its text and title; a broken one is a clear error", async () => {
    const { text } = await fetchPage({ url: `${server.origin}/pdf` });
    assert.match(text, /^Title: A Small Report$/m);
    assert.match(text, /Content-Type: application\/pdf \(1 page\)/);
    assert.match(text, /Hello from a PDF/);
    await assert.rejects(fetchPage({ url: `${server.origin}/broken.pdf` }), /could not be read/);
  });

  test("binary content is not dumped into the context", async () => {
    await assert.rejects(fetchPage({ url: `${server.origin}/image` }), /image\/png \(7 bytes\), which web_fetch does not turn into text/);
  });

  test("charsets: the header's, a <meta> one, and an unknown label falls back to UTF-8 with a note", async () => {
    assert.match((await fetchPage({ url: `${server.origin}/latin1` })).text, /decoded from windows-1252\n\ncafé$/);
    assert.match((await fetchPage({ url: `${server.origin}/sjis-meta` })).text, /日本/);
    const bad = await fetchPage({ url: `${server.origin}/bad-charset` });
    assert.match(bad.text, /Note: the page declares charset "klingon-8", which is not known; read as UTF-8/);
    assert.match(bad.text, /still readable ✓$/);
  });

  test("an HTTP error page is returned and marked failed", async () => {
    const result = await fetchPage({ url: `${server.origin}/missing-page` });
    assert.match(result.text, /Status: 404/);
    assert.equal(result.isError, true);
  });

  test("long text comes in slices; offset reads on", async () => {
    const first = await fetchPage({ url: `${server.origin}/long` });
    assert.match(first.text, /Characters 0–40000 of 45007/);
    assert.match(first.text, /\[5007 more characters: call web_fetch again with offset=40000\]$/);
    const second = await fetchPage({ url: `${server.origin}/long`, offset: 40_000 });
    assert.match(second.text, /THE-END$/);
    assert.ok(!second.text.includes("more characters"));
  });
});

describe("web_fetch: limits", () => {
  test("a body past web.max_mb is cut there and the connection dropped", async () => {
    configure({ max_mb: 0.25 });
    const hungUp = server.closed("/huge");
    const { text } = await fetchPage({ url: `${server.origin}/huge` });
    assert.match(text, /Note: the body was cut at 0.25 MB \(web.max_mb\)/);
    assert.match(text, /Characters 0–40000 of 262144/);
    await hungUp;
  });

  test("a body that stalls ends at web.timeout with a clear error", async () => {
    configure({ timeout: 0.5 });
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    const hungUp = server.closed("/slow");
    await assert.rejects(fetchPage({ url: `${server.origin}/slow` }), /took longer than 0.5 s \(web.timeout\) and was stopped/);
    await started;
    await hungUp;
  });

  test("cancelling the turn stops a fetch in flight", async () => {
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    const hungUp = server.closed("/slow");
    const pending = fetchPage({ url: `${server.origin}/slow` }, recordingContext({ cwd: "/tmp", signal: controller.signal }));
    await started;
    controller.abort(new Error("cancelled by the user"));
    await assert.rejects(pending, /cancelled by the user/);
    await hungUp;
  });

  test("redirects are followed up to web.max_redirects", async () => {
    const { text } = await fetchPage({ url: `${server.origin}/redirect-local` });
    assert.match(text, new RegExp(`Redirected from: ${server.origin}/redirect-local`));
    assert.match(text, /Title: Release notes/);
    configure({ max_redirects: 3 });
    await assert.rejects(fetchPage({ url: `${server.origin}/loop` }), /Too many redirects: more than 3 \(web.max_redirects\)/);
    assert.equal(server.requests.filter((request) => request.url === "/loop").length, 4);
  });
});

describe("web_fetch: the private-network guard", () => {
  test("127.0.0.1 is refused unless web.allow_private lists it, before any request is sent", async () => {
    configure({ allow_private: [] });
    const before = server.requests.length;
    await assert.rejects(fetchPage({ url: `${server.origin}/article` }), /Refused: 127\.0\.0\.1 is not on the public internet \(loopback\).*web\.allow_private/);
    await assert.rejects(fetchPage({ url: `http://localhost:${server.port}/article` }), /Refused: localhost resolves to (127\.0\.0\.1|::1), which is not on the public internet \(loopback\)/);
    assert.equal(server.requests.length, before, "a request reached the server");
  });

  test("a CIDR range in web.allow_private allows its addresses", async () => {
    configure({ allow_private: ["127.0.0.0/8", "::1"] });
    assert.match((await fetchPage({ url: `http://localhost:${server.port}/text` })).text, /plain words/);
  });

  test("redirects into private ranges are refused at the hop, whatever the notation", async () => {
    const cases: [string, RegExp][] = [
      ["/redirect-metadata", /169\.254\.169\.254 is not on the public internet \(link-local/],
      ["/redirect-ipv6-loopback", /::1 is not on the public internet \(loopback\)/],
      ["/redirect-decimal", /127\.0\.0\.2 is not on the public internet \(loopback\)/],
      ["/redirect-mapped", /::ffff:a00:1 is not on the public internet \(IPv4-mapped IPv6 form of a private network address\)/],
      ["/redirect-file", /Only http and https URLs can be fetched, not file/],
    ];
    for (const [path, expected] of cases) {
      const before = server.requests.length;
      await assert.rejects(fetchPage({ url: `${server.origin}${path}` }), expected, path);
      assert.equal(server.requests.length, before + 1, `${path}: only the redirecting request reached a server`);
    }
  });

  test("a redirect to another host asks for that host too; a refusal stops there", async () => {
    configure({ allow_private: ["127.0.0.0/8", "::1"] });
    const ctx = recordingContext({ cwd: "/tmp" });
    await fetchPage({ url: `${server.origin}/redirect-localhost` }, ctx);
    assert.deepEqual(
      ctx.asks.map((ask) => ask.web?.host),
      ["127.0.0.1", "localhost"],
    );
    const refusing = recordingContext({ cwd: "/tmp", allow: false });
    const before = server.requests.length;
    await assert.rejects(fetchPage({ url: `${server.origin}/article` }, refusing), /The user did not allow fetching from 127\.0\.0\.1/);
    assert.equal(server.requests.length, before, "a refused host was contacted");
  });

  test("URLs that are not plain http(s), carry credentials or a known secret are refused before anything is sent", async () => {
    registerSecretValue("sk-live-0123456789abcdefghij");
    const before = server.requests.length;
    await assert.rejects(fetchPage({ url: "file:///etc/passwd" }), /Only http and https/);
    await assert.rejects(fetchPage({ url: "ftp://example.com/x" }), /Only http and https/);
    await assert.rejects(fetchPage({ url: `http://user:pw@127.0.0.1:${server.port}/article` }), /user name or password/);
    await assert.rejects(fetchPage({ url: `${server.origin}/article?key=sk-live-0123456789abcdefghij` }), /looks like a credential/);
    await assert.rejects(fetchPage({ url: "not a url" }), /Not a valid URL/);
    assert.equal(server.requests.length, before);
  });
});

describe("web_fetch: proxies and downgrades", () => {
  /** A tiny CONNECT proxy: records each tunnel's target and pipes it through. */
  async function startProxy() {
    const tunnels: string[] = [];
    const sockets = new Set<net.Socket>();
    const proxy = http.createServer((_req, res) => res.writeHead(405).end());
    proxy.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      tunnels.push(req.url ?? "");
      sockets.add(client);
      const [host, port] = (req.url ?? "").replace(/^\[(.*)\](:\d+)$/, "$1$2").split(/:(?=\d+$)/);
      const upstream = net.connect(Number(port), host!, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const { port } = proxy.address() as net.AddressInfo;
    const close = () => {
      for (const socket of sockets) socket.destroy();
      proxy.closeAllConnections();
      return new Promise<void>((resolve) => proxy.close(() => resolve()));
    };
    return { url: `http://127.0.0.1:${port}`, tunnels, close };
  }

  test("web.proxy: the fetch goes through the proxy's tunnel, to the checked address; a private target is refused before the proxy hears of it", async () => {
    const proxy = await startProxy();
    try {
      configure({ allow_private: ["127.0.0.0/8", "::1"], proxy: proxy.url });
      assert.match((await fetchPage({ url: `http://localhost:${server.port}/text` })).text, /plain words/);
      assert.match(proxy.tunnels[0] ?? "", new RegExp(`^(127\\.0\\.0\\.1|\\[::1\\]):${server.port}$`), "tunnelled to the address Hermes checked, not the name");
      configure({ allow_private: [], proxy: proxy.url });
      await assert.rejects(fetchPage({ url: `http://10.1.2.3/` }), /Refused: 10\.1\.2\.3 is not on the public internet/);
      assert.equal(proxy.tunnels.length, 1, "the proxy was never asked for the private address");
    } finally {
      await proxy.close();
    }
  });

  test("HTTP_PROXY from the environment, NO_PROXY exempts a host, web.proxy: off ignores both", async () => {
    const proxy = await startProxy();
    try {
      const viaEnv = (env: Record<string, string>, proxySetting?: string) =>
        setWebSettings(WebConfigSchema.parse({ allow_private: ["127.0.0.1"], ...(proxySetting ? { proxy: proxySetting } : {}) }), env);
      viaEnv({ HTTP_PROXY: proxy.url });
      await fetchPage({ url: `${server.origin}/text` });
      assert.equal(proxy.tunnels.length, 1);
      viaEnv({ http_proxy: proxy.url, NO_PROXY: `example.com, 127.0.0.1:${server.port}` });
      await fetchPage({ url: `${server.origin}/text` });
      viaEnv({ HTTP_PROXY: proxy.url }, "off");
      await fetchPage({ url: `${server.origin}/text` });
      assert.equal(proxy.tunnels.length, 1, "exempted and switched off: direct");
      viaEnv({ HTTP_PROXY: "socks5://127.0.0.1:1080" });
      await assert.rejects(fetchPage({ url: `${server.origin}/text` }), /supports http:\/\/ proxies, not socks5/);
    } finally {
      await proxy.close();
    }
  });

  test("an https page that redirects to http is refused, naming the downgrade; through a proxy the TLS check still applies", async () => {
    const tls = await new Promise<https.Server>((resolve) => {
      const secure = https.createServer({ key: readFileSync(path.join(TLS, "localhost.key")), cert: readFileSync(path.join(TLS, "localhost.crt")) }, (req, res) => {
        if (req.url === "/down") res.writeHead(302, { location: `${server.origin}/text` }).end();
        else res.writeHead(200, { "content-type": "text/plain" }).end("secure words");
      });
      secure.listen(0, "127.0.0.1", () => resolve(secure));
    });
    const origin = `https://localhost:${(tls.address() as net.AddressInfo).port}`;
    const previous = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    const proxy = await startProxy();
    try {
      // The test certificate is self-signed: verified against nothing here (the name check is the proxy case below).
      process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
      configure({ allow_private: ["127.0.0.0/8", "::1"] });
      const before = server.requests.length;
      await assert.rejects(fetchPage({ url: `${origin}/down` }), /redirected to http:\/\/127\.0\.0\.1:\d+\/text, a downgrade from https to unencrypted http/);
      assert.equal(server.requests.length, before, "the http target was never contacted");
      configure({ allow_private: ["127.0.0.0/8", "::1"], proxy: proxy.url });
      assert.match((await fetchPage({ url: `${origin}/page` })).text, /secure words/);
      assert.equal(proxy.tunnels.at(-1), `localhost:${(tls.address() as net.AddressInfo).port}`, "https is tunnelled by name: its certificate proves it");
      delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      await assert.rejects(fetchPage({ url: `${origin}/page` }), /Could not fetch .*(self-signed|self signed)/i);
    } finally {
      if (previous === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previous;
      await proxy.close();
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });
});
