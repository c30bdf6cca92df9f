import { isParameterName } from '../../../protocol/script-params'
import type { FlowIndex } from '../core/flow-index'
import { replacePlaceholders, type Variables, valueForCode, variableIdByName } from '../core/variables'
import type { SandboxProgram } from '../sandbox/sandbox'

/**
 * Code never gets variable values spliced into its text (that would let an answer such as
 * `"); fetch(…` become code). Each `{{Name}}` becomes a parameter instead, and the value is
 * passed separately: to the sandbox on the server, as `args` to the widget on the client.
 */
export interface ParameterizedCode {
  code: string
  args: { id: string; value: ReturnType<typeof valueForCode> }[]
}

/** `reserved`: names the code already binds (never used for a parameter). */
export function parameterize(code: string, index: FlowIndex, variables: Variables, reserved: readonly string[] = []): ParameterizedCode {
  const paramByName = new Map<string, string>()
  const args: ParameterizedCode['args'] = []
  const used = new Set<string>(reserved)
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
  if (isParameterName(id)) return id
  const cleaned = id.replace(/[^\w$]/g, '_')
  return `v_${cleaned}`
}

function uniqueName(base: string, used: Set<string>): string {
  let name = base
  for (let n = 2; used.has(name); n++) name = `${base}_${n}`
  used.add(name)
  return name
}

/**
 * A list answer (several choices) is a list in code, yet flows written for builders that store it
 * as text call text methods on it (`{{Topics}}.split(', ')`). Each list parameter therefore also
 * answers every String method Array lacks, applied to its items joined with ", ".
 */
const LISTS_READ_AS_TEXT =
  '((...lists) => { for (const list of lists) for (const name of Object.getOwnPropertyNames(String.prototype)) ' +
  "if (!(name in Array.prototype) && typeof String.prototype[name] === 'function') " +
  "Object.defineProperty(list, name, { value(...args) { return String.prototype[name].apply(this.join(', '), args) } }) })"

/** The sandbox program for a function body over parameterized variables. */
export function codeProgram(body: string, args: ParameterizedCode['args']): SandboxProgram {
  const lists = args.filter((arg) => Array.isArray(arg.value)).map((arg) => arg.id)
  const prelude = lists.length > 0 ? `${LISTS_READ_AS_TEXT}(${lists.join(', ')})\n` : ''
  return { body: prelude + body, params: args.map((arg) => arg.id), args: args.map((arg) => arg.value) }
}
