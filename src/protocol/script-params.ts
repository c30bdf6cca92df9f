/**
 * The names a flow's script gets its variables' values under, decided by the service and checked
 * again by the widget before a script runs: a JavaScript identifier (no escapes, no non-ASCII)
 * that can name a parameter of an async function, so no reserved word, strict-mode restriction
 * or `await`, nor a literal that would shadow confusingly.
 */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

const RESERVED = new Set(
  (
    'arguments await break case catch class const continue debugger default delete do else enum eval ' +
    'export extends false finally for function if implements import in instanceof interface let new null ' +
    'package private protected public return static super switch this throw true try typeof undefined ' +
    'var void while with yield NaN Infinity'
  ).split(' '),
)

export const isParameterName = (name: string): boolean => IDENTIFIER.test(name) && !RESERVED.has(name)
