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
    attack: "a search console verification claiming the service's origin",
    code: '<meta name="google-site-verification" content="abc123">',
    copied: [],
  },
  { attack: 'a domain verification for a social network', code: '<meta name="facebook-domain-verification" content="abc123">', copied: [] },
  { attack: 'a verification named without the word', code: '<meta name="msvalidate.01" content="ABC123">', copied: [] },
  { attack: "an ad account claiming the service's origin", code: '<meta name="google-adsense-account" content="ca-pub-123">', copied: [] },
  {
    attack: "a payment pointer taking the service's visitors' money",
    code: '<meta name="monetization" content="$wallet.example/evil">',
    copied: [],
  },
  { attack: 'page insights claimed through a property', code: '<meta property="fb:admins" content="12345">', copied: [] },
  {
    attack: 'a page description for previews (the case the feature is for)',
    code: '<meta name="author" content="Acme"><meta name="twitter:site" content="@acme">',
    copied: [
      ['name', 'author', 'Acme'],
      ['name', 'twitter:site', '@acme'],
    ],
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
  { attack: 'http-equiv hidden beside a name', code: '<meta name="keywords" http-equiv="set-cookie" content="a=b">', copied: [] },
  { attack: 'a referrer policy that leaks the query to every site', code: '<meta name="referrer" content="unsafe-url">', copied: [] },
  { attack: 'a viewport that locks zooming', code: '<meta name="viewport" content="user-scalable=no">', copied: [] },
  { attack: "a second description over the flow's own", code: '<meta name="description" content="Cheap pills">', copied: [] },
  { attack: 'a charset switch', code: '<meta charset="utf-7">', copied: [] },
  {
    attack: 'content that closes the attribute and opens a script',
    code: `<meta name="keywords" content='"><script>alert(1)</script>'>`,
    copied: [['name', 'keywords', '"><script>alert(1)</script>']],
  },
  { attack: 'a name that closes the tag', code: `<meta name='a"><script>alert(1)</script>' content="x">`, copied: [] },
  {
    attack: 'an event handler on the meta tag',
    code: '<meta name="author" content="y" onload="alert(1)">',
    copied: [['name', 'author', 'y']],
  },
  { attack: 'a meta tag written by a script', code: `<script>document.write('<meta name="keywords" content="z">')</script>`, copied: [] },
  { attack: 'a meta tag inside a comment', code: '<!-- <meta name="keywords" content="z"> -->', copied: [] },
  { attack: 'a meta tag inside a style', code: '<style>/* <meta name="keywords" content="z"> */</style>', copied: [] },
  {
    attack: 'entities that decode to markup',
    code: '<meta name="keywords" content="&lt;b&gt;&quot;">',
    copied: [['name', 'keywords', '<b>"']],
  },
  { attack: 'an overlong content', code: `<meta name="keywords" content="${'a'.repeat(5000)}">`, copied: [] },
  {
    attack: 'a flood of tags',
    code: '<meta name="keywords" content="1">'.repeat(500),
    copied: Array.from({ length: 40 }, () => ['name', 'keywords', '1'] as ['name', string, string]),
  },
]
