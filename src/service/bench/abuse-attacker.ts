/**
 * The attacking client of `npm run bench:abuse`, in a process of its own: an attacker's client
 * runs on other machines, so its own work (building requests, sending 10 MB bodies) must not
 * delay the process that times the quiet tenant. abuse.ts starts it with the attack's index, the
 * service's URL and the flows as arguments, and sends `start` and `stop`; after each `stop` it
 * answers with what the attack got (a Tally).
 */
import { ATTACKS, type Flows, launch, type Tally } from './abuse-attacks'

const [index, url, flowsJson] = process.argv.slice(2)
const attack = ATTACKS[Number(index)]
if (!attack || !url || !flowsJson || !process.send) throw new Error('abuse-attacker.ts is started by abuse.ts')
const flows = JSON.parse(flowsJson) as Flows
const send = process.send.bind(process)

let stop: (() => Promise<void>) | undefined
let tally: Tally = { statuses: {}, storedBytes: 0 }
process.on('message', async (message: 'start' | 'stop' | 'exit') => {
  if (message === 'start') {
    tally = { statuses: {}, storedBytes: 0 }
    stop = launch(url, attack, flows, tally)
  } else if (message === 'stop') {
    await stop?.()
    stop = undefined
    send(tally)
  } else process.exit(0)
})
send('ready')
