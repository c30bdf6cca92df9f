import { isParameterName } from '../../protocol/script-params'

/** Why `ids` cannot be the parameter names of a script, or undefined when they can. */
export function argNamesProblem(ids: readonly string[]): string | undefined {
  const seen = new Set<string>()
  for (const id of ids) {
    if (typeof id !== 'string' || !isParameterName(id)) {
      return `The script argument ${JSON.stringify(id)} is not a usable parameter name`
    }
    if (seen.has(id)) return `The script argument ${JSON.stringify(id)} appears twice`
    seen.add(id)
  }
  return undefined
}
