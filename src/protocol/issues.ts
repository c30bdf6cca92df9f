import type { z } from 'zod/mini'

export interface ReadableIssue {
  /** Dotted path of the offending field, `""` for the root. */
  path: string
  message: string
}

/** Turns schema issues into `{path, message}` pairs a person can read in an error body. */
export function readableIssues(error: z.core.$ZodError, limit = 20): ReadableIssue[] {
  return error.issues.slice(0, limit).map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }))
}
