import { describe, expect, it } from 'vitest'
import { minifyCssTemplates } from '../../src/widget/build/css-templates'
import { BASE_CSS, css } from '../../src/widget/ui/styles'

const minify = (code: string) => minifyCssTemplates(code, 'test.ts')

describe('css templates', () => {
  it('drops comments and the whitespace CSS does not need, and the tag', () => {
    const source = 'const A = css`\n  /* why */\n  .a > .b ,\n  .c :hover {\n    color : red ;\n    margin: 0 auto;\n  }\n`'
    expect(minify(source)).toBe('const A = `.a>.b,.c :hover{color :red;margin:0 auto}`')
  })

  it('keeps expressions as they are, templates and strings inside them included', () => {
    const source = "const B = css`\n  a { color: ${v(`${name}-bg`, '#fff')}; }\n  ${box('x', \"}\")}\n`"
    expect(minify(source)).toBe("const B = `a{color:${v(`${name}-bg`, '#fff')}}${box('x', \"}\")}`")
  })

  it('leaves other templates and code alone', () => {
    const source = 'const c = `  a  {  }  `; const d = css`b { }`; const e = `  `'
    expect(minify(source)).toBe('const c = `  a  {  }  `; const d = `b{}`; const e = `  `')
  })

  it('refuses escapes it would have to interpret', () => {
    expect(() => minify('const f = css`a::before { content: "\\201C" }`')).toThrow(/escapes/)
  })

  it('the tag joins an unbuilt template as it is', () => {
    expect(css`a { color: ${'red'}; } ${1}`).toBe('a { color: red; } 1')
    expect(BASE_CSS).toContain(':host {')
  })
})
