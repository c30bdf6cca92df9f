/**
 * URLs a hostile or careless flow could put where the widget renders a link, an image, a video or
 * an embed. Each names the trick it tries. `outcome` says what the allow-list must make of it:
 * `dropped` (no URL at all), or `same-site path` when a browser would read it as a harmless
 * relative path on the page's own site (the would-be scheme ends up in the path or fragment).
 *
 * Payloads set `window.__xss` or open a dialog, so a browser test can see whether anything ran.
 */
export interface BadUrl {
  attack: string
  url: string
  outcome: 'dropped' | 'same-site path'
}

const JS = "window.__xss='ran'"

export const BAD_URLS: readonly BadUrl[] = [
  { attack: 'javascript: scheme', url: `javascript:${JS}`, outcome: 'dropped' },
  { attack: 'mixed-case javascript: scheme', url: `JaVaScRiPt:${JS}`, outcome: 'dropped' },
  { attack: 'upper-case javascript: scheme with alert', url: 'JAVASCRIPT:alert(document.domain)', outcome: 'dropped' },
  { attack: 'leading spaces before the scheme', url: `   javascript:${JS}`, outcome: 'dropped' },
  { attack: 'leading C0 control characters', url: `\u0001\u0002\u001fjavascript:${JS}`, outcome: 'dropped' },
  { attack: 'leading newline and tab', url: `\n\tjavascript:${JS}`, outcome: 'dropped' },
  { attack: 'tab inside the scheme', url: `java\tscript:${JS}`, outcome: 'dropped' },
  { attack: 'newline inside the scheme', url: `java\nscript:${JS}`, outcome: 'dropped' },
  { attack: 'CR LF inside the scheme', url: `jav\r\nascript:${JS}`, outcome: 'dropped' },
  { attack: 'trailing spaces and controls', url: `javascript:${JS}\u0000 \u0007`, outcome: 'dropped' },
  { attack: 'javascript: with a fake http comment', url: `javascript://https://example.com/%0a${JS}`, outcome: 'dropped' },
  { attack: 'data: HTML document', url: `data:text/html,<script>${JS}</script>`, outcome: 'dropped' },
  { attack: 'data: HTML document, base64', url: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', outcome: 'dropped' },
  { attack: 'mixed-case data: HTML', url: `DaTa:TeXt/HtMl,<script>${JS}</script>`, outcome: 'dropped' },
  {
    attack: 'data: SVG with an onload handler',
    url: `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="${JS}"/>`,
    outcome: 'dropped',
  },
  { attack: 'data: JavaScript', url: `data:text/javascript,${JS}`, outcome: 'dropped' },
  { attack: 'vbscript: scheme', url: 'vbscript:msgbox("ran")', outcome: 'dropped' },
  { attack: 'mixed-case vbscript: scheme', url: 'VbScRiPt:msgbox("ran")', outcome: 'dropped' },
  { attack: 'file: scheme', url: 'file:///etc/passwd', outcome: 'dropped' },
  { attack: 'blob: URL', url: 'blob:https://evil.example/0d3f2a1c-5e5b-4b1e-9c3a-000000000000', outcome: 'dropped' },
  { attack: 'filesystem: URL', url: 'filesystem:https://evil.example/temporary/x.html', outcome: 'dropped' },
  { attack: 'about: page', url: 'about:blank', outcome: 'dropped' },
  { attack: 'URL longer than any real one', url: `https://example.com/${'a'.repeat(9_000)}`, outcome: 'dropped' },
  { attack: 'HTML decimal entity for the first letter', url: `&#106;avascript:${JS}`, outcome: 'same-site path' },
  { attack: 'HTML hex entity for the colon', url: `javascript&#x3A;${JS}`, outcome: 'same-site path' },
  { attack: 'named entity for the colon', url: `javascript&colon;${JS}`, outcome: 'same-site path' },
  { attack: 'percent-encoded colon', url: `javascript%3A${JS}`, outcome: 'same-site path' },
  { attack: 'full-width colon', url: `javascript\uff1a${JS}`, outcome: 'same-site path' },
  { attack: 'NUL byte inside the scheme', url: `java\u0000script:${JS}`, outcome: 'same-site path' },
  { attack: 'zero-width space before the scheme', url: `\u200bjavascript:${JS}`, outcome: 'same-site path' },
]
