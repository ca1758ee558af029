/**
 * What a page reports as going wrong, in engines whose driver cannot tell (WebKitGTK's classic
 * WebDriver has no log) and alike in the others: a small proxy in front of the site adds a
 * collector at the top of every HTML page's head, with the response's own CSP nonce. The collector
 * sends each uncaught error, unhandled rejection (but one the page itself lets go, as it does an aborted
 * navigation: decision 037), `console.error`, resource that failed to load and
 * CSP violation back to the proxy, which keeps them for the test (as tests/e2e/fixtures.ts does
 * with Playwright's events). The page is otherwise what the site sent, byte for byte.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';

declare global {
  interface Window {
    /** The collector's count of what this load of the page has sent. */
    __problems?: { load: string; sent: number };
  }
}

/** Where the collector posts; never forwarded to the site. */
const REPORT_PATH = '/__engine-problems';
/** What the collector sends for a resource that only looked failed (counted, not kept). */
const CHECKED = 'checked';

export interface PageProblem {
  page: string;
  kind: string;
  text: string;
}

/** What the collector sends: a problem, and which load of a page it comes from. */
interface Report extends PageProblem {
  load: string;
  /** Which proxy served the page: a page of an earlier test, closing, may still report to its port. */
  proxy: string;
}

/**
 * Plain ES5, first in the head, so it sees everything the page's own scripts do; it removes its
 * own element, so hydration finds the head as the server rendered it. Each load of a page counts
 * what it has sent (`__problems`), so a test can wait for its last reports to arrive.
 *
 * Firefox fires `error` on a `<link rel="modulepreload">` for a module it has already loaded (the
 * page works; Vite's dynamic imports add such links): for those, the collector asks the server
 * whether the file is there, and reports only a file that is not. The answer is sent either way
 * (`checked` when the file is there), so the count stays true.
 */
const collector = (
  proxy: string,
) => `(function(){var w=window,s=document.currentScript,r=w.__problems={load:String(Math.random()).slice(2),sent:0};
function send(kind,text){r.sent++;var b=JSON.stringify({proxy:'${proxy}',load:r.load,kind:kind,text:String(text).slice(0,3000),page:location.pathname+location.search});
try{navigator.sendBeacon('${REPORT_PATH}',b)}catch(e){}}
w.addEventListener('error',function(e){var t=e.target;if(t&&t!==w&&t.nodeType===1){var u=t.src||t.href||t.outerHTML.slice(0,200);
if(t.rel==='modulepreload'&&t.href){fetch(t.href,{method:'HEAD'}).then(function(a){send(a.ok?'${CHECKED}':'resource failed to load',u+' ('+a.status+')')},function(){send('resource failed to load',u)});return}
send('resource failed to load',u);return}
send('page error',(e.error&&e.error.stack)||e.message)},true);
w.addEventListener('unhandledrejection',function(e){setTimeout(function(){if(e.defaultPrevented)return;var x=e.reason;send('unhandled rejection',(x&&x.stack)||x)},0)});
w.addEventListener('securitypolicyviolation',function(e){send('CSP violation',e.violatedDirective+' blocked '+e.blockedURI+' at '+e.sourceFile+':'+e.lineNumber)});
var c=console.error;console.error=function(){var a=[];for(var i=0;i<arguments.length;i++){var x=arguments[i];a.push(x&&x.stack?x.stack:String(x))}send('console.error',a.join(' '));return c.apply(console,arguments)};
if(s&&s.parentNode)s.parentNode.removeChild(s)})();`;

export interface ErrorProxy {
  /** The origin a browser opens instead of the site's. */
  origin: string;
  /** Everything reported so far, and forgets it. */
  take(): PageProblem[];
  /** How many reports have arrived from one load of a page (its `__problems.load`). */
  received(load: string): number;
  close(): Promise<void>;
}

/** Inserts the collector right after the opening `<head …>` tag, as the HTML streams through. */
function injectAfterHead(upstream: http.IncomingMessage, downstream: http.ServerResponse, script: string): void {
  let pending = '';
  let done = false;
  upstream.setEncoding('utf8');
  upstream.on('data', (chunk: string) => {
    if (done) {
      downstream.write(chunk);
      return;
    }
    pending += chunk;
    const match = /<head(\s[^>]*)?>/i.exec(pending);
    if (!match) return;
    const end = match.index + match[0].length;
    downstream.write(pending.slice(0, end) + script + pending.slice(end));
    pending = '';
    done = true;
  });
  upstream.on('end', () => downstream.end(pending));
  upstream.on('error', () => downstream.destroy());
}

/** Starts the proxy in front of a site, on this port (0: any free one). */
export async function startErrorProxy(site: string, listenPort = 0): Promise<ErrorProxy> {
  const target = new URL(site);
  // A fresh connection to the site for each request: a kept-alive one that the site closes just as
  // it is reused fails the request, which the page would see as a resource that did not load.
  const agent = new http.Agent({ keepAlive: false });
  let problems: PageProblem[] = [];
  const counts = new Map<string, number>();
  // Each test starts a proxy on its engine's fixed port: a page of the test before, torn down as
  // its tab closes, can still send a report there. Only the pages this proxy served are its test's.
  const id = randomBytes(6).toString('hex');

  const server = http.createServer((request, response) => {
    if (request.method === 'POST' && request.url === REPORT_PATH) {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        try {
          const report: Partial<Report> = JSON.parse(body);
          if (report.proxy !== id) {
            response.writeHead(204).end();
            return;
          }
          if (report.kind !== CHECKED)
            problems.push({ page: String(report.page), kind: String(report.kind), text: String(report.text) });
          const load = String(report.load);
          counts.set(load, (counts.get(load) ?? 0) + 1);
        } catch {
          problems.push({ page: '?', kind: 'unreadable report', text: body.slice(0, 500) });
        }
        response.writeHead(204).end();
      });
      return;
    }
    const forwarded = http.request(
      {
        host: target.hostname,
        port: target.port,
        agent,
        method: request.method,
        path: request.url,
        // Uncompressed, so the HTML can be read on the way; the Host stays the proxy's, so the
        // site's absolute URLs and cookies are the proxy's too.
        headers: { ...request.headers, 'accept-encoding': 'identity' },
      },
      (upstream) => {
        const headers = { ...upstream.headers };
        const html = /^text\/html/i.test(String(headers['content-type'] ?? ''));
        const nonce = /'nonce-([^']+)'/.exec(String(headers['content-security-policy'] ?? ''))?.[1];
        if (!html) {
          response.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, headers);
          upstream.pipe(response);
          return;
        }
        delete headers['content-length'];
        const script = collector(id);
        // A cached page allows its inline scripts by their hashes (no nonce): the collector's joins them.
        const policy = headers['content-security-policy'];
        if (!nonce && typeof policy === 'string') {
          headers['content-security-policy'] = policy.replace(
            'script-src ',
            `script-src 'sha256-${createHash('sha256').update(script).digest('base64')}' `,
          );
        }
        response.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, headers);
        injectAfterHead(upstream, response, `<script${nonce ? ` nonce="${nonce}"` : ''}>${script}</script>`);
      },
    );
    forwarded.on('error', (error) => {
      problems.push({ page: String(request.url), kind: 'the proxy could not reach the site', text: String(error) });
      if (!response.headersSent) response.writeHead(502);
      response.end(String(error));
    });
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    origin: `http://127.0.0.1:${port}`,
    take() {
      const taken = problems;
      problems = [];
      return taken;
    },
    received: (load) => counts.get(load) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
