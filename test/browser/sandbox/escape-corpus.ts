/**
 * Scripts a hostile flow might send, each trying one way out of the sandbox. Every script gets two
 * arguments: `service`, the origin that serves the sandbox, and `canary`, another loopback server;
 * paths under `/escape/` on either must never be reached.
 */
export interface EscapeCase {
  /** What the script tries. */
  attack: string
  content: string
  /** How the attempt must end. */
  expected: { reason: 'error' | 'too_large'; message: RegExp } | { ok: true; value: unknown }
  /** `emitHostEvent` calls the page may see (the one channel works, within its limits). */
  hostEvents?: number
}

const blocked = (name: string) => ({ reason: 'error' as const, message: new RegExp(`${name} is not available to flow scripts`) })
const undefinedName = (name: string) => ({ reason: 'error' as const, message: new RegExp(`ReferenceError: ${name} is not defined`) })

export const ESCAPE_CORPUS: EscapeCase[] = [
  // `document` holds the page's address (document.location) and nothing else of the page.
  { attack: 'read document.cookie', content: 'return document.cookie', expected: blocked('document.cookie') },
  {
    attack: "read the host page's localStorage",
    content: "return localStorage.getItem('host_secret')",
    expected: undefinedName('localStorage'),
  },
  {
    attack: "read the host page's sessionStorage",
    content: "return sessionStorage.getItem('host_secret')",
    expected: undefinedName('sessionStorage'),
  },
  { attack: 'reach parent.document', content: 'return parent.document.cookie', expected: undefinedName('parent') },
  { attack: 'read top.location', content: 'return top.location.href', expected: undefinedName('top') },
  {
    attack: 'reach the widget element and its shadow root',
    content: "return document.querySelector('flow-chat-test').shadowRoot.innerHTML",
    expected: blocked('document.querySelector'),
  },
  {
    attack: 'find a window through the Function constructor',
    content: 'return Function("return typeof window + \' \' + Object.keys(document).join()")()',
    expected: { ok: true, value: 'undefined location,URL,documentURI,referrer' },
  },
  { attack: 'open a window', content: "return open(canary + '/escape/open')", expected: undefinedName('open') },
  { attack: 'navigate top', content: "top.location.href = canary + '/escape/navigate'", expected: undefinedName('top') },
  {
    attack: 'navigate its own context away',
    // `location` is a frozen copy of the page's address (empty here: the harness gives none), never the worker's own.
    content:
      "location.href = canary + '/escape/navigate-self'; return location.href === '' && Object.isFrozen(location) && !String(self.location).startsWith('blob:')",
    expected: { ok: true, value: true },
  },
  { attack: 'fetch the service', content: "return await (await fetch(service + '/collect?escape=1')).text()", expected: blocked('fetch') },
  {
    attack: 'fetch another loopback server',
    content: "return await (await fetch(canary + '/escape/fetch')).text()",
    expected: blocked('fetch'),
  },
  {
    attack: 'recover fetch from the global prototype chain',
    content:
      "const f = WorkerGlobalScope.prototype.fetch || Object.getPrototypeOf(self).fetch; return await f.call(self, canary + '/escape/proto-fetch')",
    expected: { reason: 'error', message: /TypeError: Cannot read properties of undefined/ },
  },
  {
    attack: 'send an XMLHttpRequest',
    content: "const x = new XMLHttpRequest(); x.open('GET', canary + '/escape/xhr'); x.send()",
    expected: blocked('XMLHttpRequest'),
  },
  { attack: 'open a WebSocket', content: "new WebSocket(canary.replace('http', 'ws') + '/escape/ws')", expected: blocked('WebSocket') },
  { attack: 'open an EventSource', content: "new EventSource(canary + '/escape/sse')", expected: blocked('EventSource') },
  {
    attack: 'send a beacon',
    content: "navigator.sendBeacon(canary + '/escape/beacon', 'x')",
    expected: { reason: 'error', message: /sendBeacon is not a function/ },
  },
  {
    attack: 'importScripts from another server',
    content: "importScripts(canary + '/escape/import-scripts.js')",
    expected: blocked('importScripts'),
  },
  {
    attack: 'import() a module from the service',
    content: "return await import(service + '/escape/module.js')",
    expected: { reason: 'error', message: /Failed to fetch dynamically imported module/ },
  },
  {
    attack: 'start a nested Worker',
    content: "new Worker(URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' })))",
    expected: blocked('Worker'),
  },
  { attack: 'open IndexedDB', content: "indexedDB.open('flow-chat')", expected: blocked('indexedDB') },
  {
    attack: 'talk on a BroadcastChannel',
    content: "new BroadcastChannel('flow-chat').postMessage('hello')",
    expected: blocked('BroadcastChannel'),
  },
  {
    attack: 'pollute prototypes so that it reaches the host',
    content: [
      "Object.prototype.polluted = 'yes'",
      "Array.prototype.polluted = 'yes'",
      'emitHostEvent(\'pollution\', JSON.parse(\'{"__proto__": {"polluted": "yes"}}\'))',
      'return JSON.parse(\'{"__proto__": {"polluted": "yes"}, "kept": 1}\')',
    ].join('\n'),
    expected: { ok: true, value: { kept: 1 } },
    hostEvents: 1,
  },
  {
    attack: 'post a message forged to look like a sandbox reply',
    content: "postMessage({ type: 'flow-chat-sandbox:result', runId: '0'.repeat(32), status: 'ok', value: '\"forged\"' }, '*')",
    expected: blocked('postMessage'),
  },
  { attack: 'end its own Worker', content: 'close()', expected: blocked('close') },
  {
    attack: 'return an extremely large result',
    content: "return 'x'.repeat(50_000_000)",
    expected: { reason: 'too_large', message: /over the limit/ },
  },
  {
    attack: 'emit an extremely large event',
    content: "emitHostEvent('big', 'x'.repeat(1_000_000))",
    expected: { reason: 'error', message: /RangeError: emitHostEvent: the payload is over/ },
  },
  {
    attack: 'flood the page with events',
    content: "for (let i = 0; i < 10_000; i++) emitHostEvent('flood', i)",
    expected: { reason: 'error', message: /RangeError: emitHostEvent: a script may emit at most 50 events/ },
    hostEvents: 50,
  },
  {
    attack: 'emit an event under a name meant to look like markup',
    content: "emitHostEvent('<img src=x onerror=alert(1)>', {})",
    expected: { reason: 'error', message: /TypeError: emitHostEvent: the name must be/ },
  },
]

/**
 * Every way a script could reach the network with network access off, tried where the sandbox
 * document is served without its CSP header (a careless copy): the document's own policy and its
 * removal of the request APIs must hold on their own.
 */
export const NETWORK_OFF_CORPUS: EscapeCase[] = [
  ...ESCAPE_CORPUS.filter((attack) =>
    /fetch|XMLHttpRequest|WebSocket|EventSource|beacon|importScripts|import\(\)|nested Worker/.test(attack.attack),
  ),
  {
    attack: 'load a web font from another server',
    content: "const face = new FontFace('escape', 'url(' + canary + '/escape/font.woff2)'); await face.load(); return face.status",
    expected: blocked('FontFace'),
  },
  {
    attack: "load a web font through the Worker's font set",
    content: "fonts.add(new (Object.getPrototypeOf(fonts).constructor)()); return 'added'",
    expected: blocked('fonts'),
  },
  {
    attack: 'import() a module from another server',
    content: "return await import(canary + '/escape/module.js')",
    expected: { reason: 'error', message: /Failed to fetch dynamically imported module/ },
  },
  {
    attack: 'import() a data: module that fetches',
    content: "return await import('data:text/javascript,export default 1')",
    expected: { reason: 'error', message: /Failed to fetch dynamically imported module/ },
  },
]
