import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadFontOf, parseFontFaces } from '../../../src/widget/element/fonts'

class FakeFontFace {
  constructor(
    readonly family: string,
    readonly source: string,
    readonly descriptors: FontFaceDescriptors,
  ) {}
}

afterEach(() => vi.unstubAllGlobals())

const GOOGLE_CSS = `
/* latin */
@font-face {
  font-family: 'Open Sans';
  font-style: normal;
  font-weight: 400;
  font-stretch: 100%;
  font-display: swap;
  src: url(https://fonts.gstatic.com/s/opensans/v40/a.woff2) format('woff2');
  unicode-range: U+0000-00FF, U+0131;
}
@font-face {
  font-family: 'Open Sans';
  font-weight: 700;
  src: url("javascript:alert(1)");
}
@font-face {
  font-family: 'Open Sans';
  font-weight: 600; } body { display: none;
  src: url(https://fonts.gstatic.com/s/opensans/v40/b.woff2);
}`

describe('parseFontFaces', () => {
  it('rebuilds faces under the private alias from their https sources and plain descriptors', () => {
    vi.stubGlobal('FontFace', FakeFontFace)
    const faces = parseFontFaces(GOOGLE_CSS, 'flowchat Open Sans') as unknown as FakeFontFace[]
    expect(faces).toHaveLength(1)
    expect(faces[0]).toMatchObject({
      family: 'flowchat Open Sans',
      source: 'url("https://fonts.gstatic.com/s/opensans/v40/a.woff2")',
      descriptors: { style: 'normal', weight: '400', stretch: '100%', unicodeRange: 'U+0000-00FF, U+0131', display: 'swap' },
    })
  })
})

describe('loadFontOf', () => {
  it('validates the font it was handed (the core does not read it) and loads nothing from a font it cannot read', async () => {
    const registered = vi.fn()
    vi.stubGlobal(
      'FontFace',
      class {
        constructor() {
          registered()
        }
      },
    )
    await expect(loadFontOf({ type: 'Custom', family: 'Evil', url: { href: 'https://fonts.example/evil.woff2' } })).rejects.toThrow(
      /not one this widget can read/,
    )
    await expect(loadFontOf(42)).rejects.toThrow(/not one this widget can read/)
    expect(registered).not.toHaveBeenCalled()
  })
})
