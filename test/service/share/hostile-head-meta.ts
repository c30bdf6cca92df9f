/**
 * Head code an owner could paste (or an attacker write into a flow) whose `<meta>` tags the share
 * page copies into its own `<head>`. Each entry names its attack; `copied` lists the
 * `[attribute, key, content]` the page must carry for it, exactly (escaped, and nothing else of it).
 */
export interface HostileHeadCode {
  attack: string
  code: string
  copied: [attribute: 'name' | 'property', key: string, content: string][]
}

export const HOSTILE_HEAD_CODE: HostileHeadCode[] = [
  {
    attack: 'a plain verification tag (the case the feature is for)',
    code: '<meta name="google-site-verification" content="abc123">',
    copied: [['name', 'google-site-verification', 'abc123']],
  },
  {
    attack: 'an Open Graph tag the page does not write',
    code: '<meta property="og:site_name" content="Acme">',
    copied: [['property', 'og:site_name', 'Acme']],
  },
  {
    attack: 'a refresh to another site through http-equiv',
    code: '<meta http-equiv="refresh" content="0;url=https://evil.example">',
    copied: [],
  },
  { attack: 'a weaker policy through http-equiv', code: `<meta http-equiv="Content-Security-Policy" content="script-src *">`, copied: [] },
  { attack: 'http-equiv hidden beside a name', code: '<meta name="x" http-equiv="set-cookie" content="a=b">', copied: [] },
  { attack: 'a referrer policy that leaks the query to every site', code: '<meta name="referrer" content="unsafe-url">', copied: [] },
  { attack: 'a viewport that locks zooming', code: '<meta name="viewport" content="user-scalable=no">', copied: [] },
  { attack: "a second description over the flow's own", code: '<meta name="description" content="Cheap pills">', copied: [] },
  { attack: 'a charset switch', code: '<meta charset="utf-7">', copied: [] },
  {
    attack: 'content that closes the attribute and opens a script',
    code: `<meta name="x-a" content='"><script>alert(1)</script>'>`,
    copied: [['name', 'x-a', '"><script>alert(1)</script>']],
  },
  { attack: 'a name that closes the tag', code: `<meta name='a"><script>alert(1)</script>' content="x">`, copied: [] },
  { attack: 'an event handler on the meta tag', code: '<meta name="x-b" content="y" onload="alert(1)">', copied: [['name', 'x-b', 'y']] },
  { attack: 'a meta tag written by a script', code: `<script>document.write('<meta name="x-c" content="z">')</script>`, copied: [] },
  { attack: 'a meta tag inside a comment', code: '<!-- <meta name="x-d" content="z"> -->', copied: [] },
  { attack: 'a meta tag inside a style', code: '<style>/* <meta name="x-e" content="z"> */</style>', copied: [] },
  { attack: 'entities that decode to markup', code: '<meta name="x-f" content="&lt;b&gt;&quot;">', copied: [['name', 'x-f', '<b>"']] },
  { attack: 'an overlong content', code: `<meta name="x-g" content="${'a'.repeat(5000)}">`, copied: [] },
  {
    attack: 'a flood of tags',
    code: '<meta name="x-h" content="1">'.repeat(500),
    copied: Array.from({ length: 40 }, () => ['name', 'x-h', '1'] as ['name', string, string]),
  },
]
