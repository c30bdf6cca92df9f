/** A JavaScript identifier (no escapes, no non-ASCII: nothing a script argument's id needs). */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/**
 * Words that cannot name a parameter of an async function (reserved words, strict-mode
 * restrictions, and `await`), plus literals that would shadow confusingly.
 */
const UNUSABLE = new Set(
  (
    'arguments await break case catch class const continue debugger default delete do else enum eval ' +
    'export extends false finally for function if implements import in instanceof interface let new null ' +
    'package private protected public return static super switch this throw true try typeof undefined ' +
    'var void while with yield NaN Infinity'
  ).split(' '),
)

/** Why `ids` cannot be the parameter names of a script, or undefined when they can. */
export function argNamesProblem(ids: readonly string[]): string | undefined {
  const seen = new Set<string>()
  for (const id of ids) {
    if (typeof id !== 'string' || !IDENTIFIER.test(id) || UNUSABLE.has(id)) {
      return `The script argument ${JSON.stringify(id)} is not a usable parameter name`
    }
    if (seen.has(id)) return `The script argument ${JSON.stringify(id)} appears twice`
    seen.add(id)
  }
  return undefined
}
