import { signal } from '@preact/signals'

/**
 * The inbox's sound for a new waiting conversation: two short soft tones made with the Web Audio
 * API (no file to fetch, nothing the page's policy must allow). Browsers let a page play sound
 * only after the person interacted with it, so the audio starts on their first key or click in
 * the console (`unlockAudio`); before that a new conversation shows and is announced, silently.
 * Muting is remembered in this browser.
 */
const MUTED_KEY = 'flow-console:inbox-muted'

const readMuted = () => {
  try {
    return localStorage.getItem(MUTED_KEY) === 'true'
  } catch {
    return false
  }
}

export const muted = signal(readMuted())

export function setMuted(value: boolean): void {
  muted.value = value
  try {
    if (value) localStorage.setItem(MUTED_KEY, 'true')
    else localStorage.removeItem(MUTED_KEY)
  } catch {
    // Storage refused (a private mode): the choice holds for this page's life.
  }
}

let audio: AudioContext | undefined

/** Called on a person's key or click: the one moment a browser lets a page start its audio. */
export function unlockAudio(): void {
  if (typeof AudioContext === 'undefined') return
  audio ??= new AudioContext()
  if (audio.state === 'suspended') void audio.resume()
}

/** E5 then A5, each a quick swell and fade, quiet enough not to startle. */
const NOTES = [
  { frequency: 659.25, at: 0 },
  { frequency: 880, at: 0.14 },
]

export function chime(): void {
  if (muted.value || !audio || audio.state !== 'running') return
  const start = audio.currentTime
  for (const note of NOTES) {
    const oscillator = audio.createOscillator()
    const gain = audio.createGain()
    oscillator.type = 'sine'
    oscillator.frequency.value = note.frequency
    gain.gain.setValueAtTime(0.0001, start + note.at)
    gain.gain.exponentialRampToValueAtTime(0.15, start + note.at + 0.02)
    gain.gain.exponentialRampToValueAtTime(0.0001, start + note.at + 0.35)
    oscillator.connect(gain).connect(audio.destination)
    oscillator.start(start + note.at)
    oscillator.stop(start + note.at + 0.4)
  }
}
