import { describe, expect, it } from 'vitest'
import { cliInvocation } from '../../../src/service/cli/invocation'

/** The usage text names the command line as the user ran it: each way, with what npm tells the process. */
describe('how the command line was run', () => {
  const project = '/srv/flow-chat'
  it.each([
    ['npx flow-service', { npm_command: 'exec' }, `${project}/node_modules/.bin/flow-service`],
    ['npx flow-service', { npm_command: 'exec' }, '/home/node/.npm/_npx/5ae525d6/node_modules/.bin/flow-service'],
    ['npm run flows --', { npm_command: 'run-script', npm_lifecycle_event: 'flows' }, `${project}/build/service/flow-service.mjs`],
    ['flow-service', {}, '/usr/local/bin/flow-service'],
    ['node build/service/flow-service.mjs', {}, `${project}/build/service/flow-service.mjs`],
    // Run by some other npm command (a test run): its own path still.
    [
      'node build/service/flow-service.mjs',
      { npm_command: 'exec', npm_lifecycle_event: 'test' },
      `${project}/build/service/flow-service.mjs`,
    ],
    ['npx tsx src/service/cli/flows.ts', {}, `${project}/src/service/cli/flows.ts`],
    ['node /opt/flow/build/service/flow-service.mjs', {}, '/opt/flow/build/service/flow-service.mjs'],
  ])('%s', (form, env, script) => {
    expect(cliInvocation(env, script, project)).toBe(form)
  })
})
