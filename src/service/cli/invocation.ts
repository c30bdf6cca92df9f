import { basename, relative } from 'node:path'

/** The command line's name as a command (package.json `bin`): `npx flow-service …` from an install. */
export const CLI_NAME = 'flow-service'

/**
 * The command a user types for the command line: what the service prints (a token to create) and
 * what the docs give. It works in a checkout once built (`npm run build`, or `npm start`), in a
 * production install and in the container, all of which have build/service/flow-service.mjs.
 */
export const CLI_COMMAND = `npx ${CLI_NAME}`

/**
 * How this process's user ran the command line, as they would type it again (usage text and hints
 * name it): `npx flow-service`, `npm run flows --`, `flow-service` (the command on the PATH), or
 * the script itself (`node build/service/flow-service.mjs`, `npx tsx src/service/cli/flows.ts`).
 */
export function cliInvocation(
  env: Record<string, string | undefined> = process.env,
  script = process.argv[1],
  cwd = process.cwd(),
): string {
  // npm runs the `flows` script with the build's path as the script, and says which script it runs.
  if (env.npm_lifecycle_event === 'flows') return 'npm run flows --'
  if (script && basename(script) === CLI_NAME) return env.npm_command === 'exec' ? CLI_COMMAND : CLI_NAME
  if (!script) return CLI_COMMAND
  const path = relative(cwd, script)
  const shown = path.startsWith('..') || path === '' ? script : path
  return script.endsWith('.ts') ? `npx tsx ${shown}` : `node ${shown}`
}
