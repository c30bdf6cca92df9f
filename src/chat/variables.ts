export type PrefilledVariables = Record<string, string | number | boolean>

/**
 * Keeps the entries the contract accepts (string, finite number, boolean); the page may have set
 * anything on the property, and one bad value must not make the service refuse the whole start.
 */
export function cleanVariables(input: unknown): { variables: PrefilledVariables | undefined; dropped: string[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { variables: undefined, dropped: input == null ? [] : ['(not an object)'] }
  }
  const variables: PrefilledVariables = {}
  const dropped: string[] = []
  for (const [name, value] of Object.entries(input)) {
    const ok =
      typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
    if (ok) variables[name] = value
    else dropped.push(name)
  }
  return { variables: Object.keys(variables).length > 0 ? variables : undefined, dropped }
}
