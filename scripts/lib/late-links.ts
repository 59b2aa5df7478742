import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Pages that add links late, each in its own way, for the settle rules (lib/analyzer/render/settle.ts) and
 * tests/integration/url-mode/late-links.test.ts. Every page's late links have `/late-link/` in their
 * href; LATE_LINKS says how many each page must end up with. /late/busy-forever is the other side: a
 * page that never stops changing small things (tickers, a carousel, an animation loop, analytics pings)
 * but whose links are all there at load; the render must not wait for the cap there.
 */

type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** Late links each page must end up with, by path. */
export const LATE_LINKS: Record<string, number> = {
  "/late/timer-1500": 2,
  "/late/fetch-slow": 3,
  "/late/raf-chain": 2,
  "/late/after-load": 2,
  "/late/script-insert": 2,
  "/late/microtask-storm": 2,
  "/late/poll-interval": 1,
  "/late/nested-timers": 1,
};

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><a href="/static">static</a><div id="box"></div>${body}</body></html>`;
}

const ADD = `function add(name) { var a = document.createElement('a'); a.href = '/late-link/' + name; a.textContent = name; document.getElementById('box').appendChild(a); }`;

function html(res: ServerResponse, body: string): void {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(body);
}

export function lateLinkRoutes(): Record<string, Route> {
  return {
    // A timer set by the page's script, 1.5 s long: a deferred widget.
    "/late/timer-1500": (_req, res) =>
      html(
        res,
        page("Timer", `<script>${ADD} setTimeout(function () { add('timer-a'); add('timer-b'); }, 1500);</script>`),
      ),
    // A fetch whose answer takes 1.2 s, read with .json(), rendered in a then-chain; one more link a
    // microtask later.
    "/late/fetch-slow": (_req, res) =>
      html(
        res,
        page(
          "Fetch",
          `<script>${ADD} window.addEventListener('load', function () {
            fetch('/late/api/slow-list').then(function (r) { return r.json(); }).then(function (list) { list.forEach(add); return Promise.resolve(); }).then(function () { add('fetch-after-microtask'); });
          });</script>`,
        ),
      ),
    "/late/api/slow-list": (_req, res) => {
      setTimeout(
        () =>
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(["fetched-1", "fetched-2"])),
        1_200,
      );
    },
    // Forty animation frames (~0.7 s at 60 fps), then the links.
    "/late/raf-chain": (_req, res) =>
      html(
        res,
        page(
          "Frames",
          `<script>${ADD} var frames = 0; function step() { frames += 1; if (frames < 40) requestAnimationFrame(step); else { add('raf-a'); add('raf-b'); } } requestAnimationFrame(step);</script>`,
        ),
      ),
    // Work started by the load event: one link from an XHR answered after 400 ms, one from a timer.
    "/late/after-load": (_req, res) =>
      html(
        res,
        page(
          "After load",
          `<script>${ADD} window.addEventListener('load', function () {
            var xhr = new XMLHttpRequest(); xhr.open('GET', '/late/api/slow-text'); xhr.onload = function () { add(xhr.responseText); }; xhr.send();
            setTimeout(function () { add('load-timer'); }, 300);
          });</script>`,
        ),
      ),
    "/late/api/slow-text": (_req, res) => {
      setTimeout(() => res.writeHead(200, { "content-type": "text/plain" }).end("xhr-after-load"), 400);
    },
    // A script inserted after load, served after 700 ms, adds the links when it runs.
    "/late/script-insert": (_req, res) =>
      html(
        res,
        page(
          "Script",
          `<script>${ADD} window.addEventListener('load', function () { var s = document.createElement('script'); s.src = '/late/widget.js'; document.head.appendChild(s); });</script>`,
        ),
      ),
    "/late/widget.js": (_req, res) => {
      setTimeout(
        () => res.writeHead(200, { "content-type": "text/javascript" }).end("add('widget-a'); add('widget-b');"),
        700,
      );
    },
    // 200,000 chained microtasks after a short timer, then a link; another storm in a fetch's then-chain.
    "/late/microtask-storm": (_req, res) =>
      html(
        res,
        page(
          "Microtasks",
          `<script>${ADD}
            function storm(n, done) { var p = Promise.resolve(); for (var i = 0; i < n; i += 1) p = p.then(function () {}); p.then(done); }
            setTimeout(function () { storm(200000, function () { add('storm-timer'); }); }, 50);
            fetch('/late/api/slow-text').then(function (r) { return r.text(); }).then(function () { storm(100000, function () { queueMicrotask(function () { add('storm-fetch'); }); }); });
          </script>`,
        ),
      ),
    // "Wait until ready" with a short interval: a flag set 600 ms later by a timer.
    "/late/poll-interval": (_req, res) =>
      html(
        res,
        page(
          "Poll",
          `<script>${ADD} var ready = false; setTimeout(function () { ready = true; }, 600);
            var poll = setInterval(function () { if (!ready) return; clearInterval(poll); add('polled'); }, 100);</script>`,
        ),
      ),
    // A chain of short timers: 8 × 150 ms.
    "/late/nested-timers": (_req, res) =>
      html(
        res,
        page(
          "Chain",
          `<script>${ADD} var n = 0; function next() { n += 1; if (n < 8) setTimeout(next, 150); else add('chain-end'); } setTimeout(next, 150);</script>`,
        ),
      ),
    // Never quiet in small ways, complete at load: a 1 s clock, a 3 s carousel, an endless animation
    // loop that moves an element, analytics pings every 5 s, a 1 s self-rescheduling timer.
    "/late/busy-forever": (_req, res) =>
      html(
        res,
        page(
          "Busy forever",
          `<p id="clock">0</p><div id="slide" class="s0" style="position:relative">slide</div>
          <script>
            var t = 0; setInterval(function () { document.getElementById('clock').textContent = String(++t); }, 1000);
            var s = 0; setInterval(function () { document.getElementById('slide').className = 's' + (++s % 3); }, 3000);
            (function frame(ts) { document.getElementById('slide').style.left = (ts % 100) + 'px'; requestAnimationFrame(frame); })(0);
            setInterval(function () { navigator.sendBeacon('/late/ping', 'x'); }, 5000);
            (function again() { setTimeout(again, 1000); })();
          </script>`,
        ),
      ),
    "/late/ping": (_req, res) => res.writeHead(204).end(),
  };
}
