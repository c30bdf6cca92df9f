import { describe, expect, it } from 'vitest'
import { argNamesProblem } from '../../../src/widget/sandbox/arg-names'

describe('argNamesProblem', () => {
  it('accepts identifiers, including the variable ids flows use', () => {
    expect(argNamesProblem([])).toBeUndefined()
    expect(argNamesProblem(['name', 'vabc123', '_private', '$el', 'v_first_name'])).toBeUndefined()
  })

  it('refuses what cannot name a parameter of an async function', () => {
    for (const id of ['', '1st', 'first-name', 'a b', 'await', 'yield', 'class', 'eval', 'arguments', 'let', 'x)', 'a,b']) {
      expect(argNamesProblem([id]), id).toBe(`The script argument ${JSON.stringify(id)} is not a usable parameter name`)
    }
  })

  it('refuses a name given twice', () => {
    expect(argNamesProblem(['a', 'b', 'a'])).toBe('The script argument "a" appears twice')
  })
})
