import type { FlowIndex } from './flow-index'
import { replacePlaceholders, valueForCode, type Variables, variableIdByName } from './variables'

/**
 * Code never gets variable values spliced into its text (that would let an answer such as
 * `"); fetch(…` become code). Each `{{Name}}` becomes a parameter instead, and the value is
 * passed separately: to the sandbox on the server, as `args` to the widget on the client.
 */
export interface ParameterizedCode {
  code: string
  args: { id: string; value: ReturnType<typeof valueForCode> }[]
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/
const RESERVED = new Set(
  (
    'arguments await break case catch class const continue debugger default delete do else enum eval ' +
    'export extends false finally for function if implements import in instanceof interface let new null ' +
    'package private protected public return static super switch this throw true try typeof undefined ' +
    'var void while with yield NaN Infinity'
  ).split(' '),
)

export function parameterize(code: string, index: FlowIndex, variables: Variables): ParameterizedCode {
  const paramByName = new Map<string, string>()
  const args: ParameterizedCode['args'] = []
  const used = new Set<string>()
  const replaced = replacePlaceholders(code, (name) => {
    const known = paramByName.get(name)
    if (known) return known
    const id = variableIdByName(index, name)
    const param = uniqueName(id === undefined ? 'unsetVariable' : paramNameFor(id), used)
    paramByName.set(name, param)
    args.push({ id: param, value: id === undefined ? null : valueForCode(variables[id]) })
    return param
  })
  return { code: replaced, args }
}

/** The variable id itself when it is a usable JS identifier (ids usually are), else a safe form. */
function paramNameFor(id: string): string {
  if (IDENTIFIER.test(id) && !RESERVED.has(id)) return id
  const cleaned = id.replace(/[^\w$]/g, '_')
  return `v_${cleaned}`
}

function uniqueName(base: string, used: Set<string>): string {
  let name = base
  for (let n = 2; used.has(name); n++) name = `${base}_${n}`
  used.add(name)
  return name
}
