import { describe, expect, it } from 'vitest'
import { compressAgain } from '../../src/widget/build/second-pass'

describe('the second compression pass', () => {
  it('keeps what the code does', async () => {
    const { code } = await compressAgain('export function f(a){var b=a+1;var c=b*2;if(c>4){return c}else{return 0}}', true)
    const module = await import(`data:text/javascript,${encodeURIComponent(code)}`)
    expect([module.f(0), module.f(2)]).toEqual([0, 6])
  })

})
