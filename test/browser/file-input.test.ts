import { join } from 'node:path'
import type { Page, Route } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { PDF, PNG } from '../service/fixtures/upload-files'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { TEST_FLOWS_DIR } from './helpers/test-service'

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'files.json'), join(TEST_FLOWS_DIR, 'file-single.json')], async () => {
  // The browser context is shared: the next test must not resume this one's conversation.
  const cleaner = await suite.newPage()
  await cleaner.goto(`${suite.service.host.origin}/test/host.css`)
  await cleaner.evaluate(() => localStorage.clear())
  await cleaner.close()
})

const png = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG })

/** A host page (on another site than the service) with the chat of `flow`, waiting for its file input. */
async function openFlow(flow: 'files.json' | 'file-single.json', viewport?: { width: number; height: number }) {
  const page = await suite.newPage()
  if (viewport) await page.setViewportSize(viewport)
  const errors = trackErrors(page)
  await page.goto(suite.service.pageUrl(suite.service.flows[flow]!))
  const c = chat(page)
  await c.host('Please send photos of the damage.').waitFor()
  return { page, c, errors }
}

/**
 * Holds the page's uploads on their way to the service until released: while held, a file shows
 * its progress bar. `fail` makes the next ones fail as a dropped connection does.
 */
async function holdUploads(page: Page) {
  const held: Route[] = []
  let failures = 0
  let seen = 0
  await page.route(/\/v1\/sessions\/[^/]+\/uploads\?/, async (route) => {
    seen++
    if (failures > 0) {
      failures--
      return route.abort('connectionreset')
    }
    held.push(route)
  })
  return {
    seen: () => seen,
    fail: (count: number) => void (failures = count),
    async release() {
      await expect.poll(() => held.length).toBeGreaterThan(0)
      for (const route of held.splice(0)) await route.continue()
    },
  }
}

/** Chooses files through the chat's file button and the browser's file picker; counts the pickers opened. */
async function chooseFiles(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>) {
  const chooser = page.waitForEvent('filechooser')
  await chat(page)
    .root.getByRole('button', { name: /^Choose (a file|files)$/ })
    .click()
  await (await chooser).setFiles(files)
}

/** Drops files on the chat's drop area, as a visitor dragging them from their desktop. */
async function dropFiles(page: Page, files: Array<{ name: string; type: string; base64: string }>) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer()
    for (const file of list)
      transfer.items.add(new File([Uint8Array.from(atob(file.base64), (ch) => ch.charCodeAt(0))], file.name, { type: file.type }))
    return transfer
  }, files)
  const zone = chat(page).root.locator('[part~="file-drop"]')
  await zone.dispatchEvent('dragover', { dataTransfer })
  await zone.dispatchEvent('drop', { dataTransfer })
}

const answersOf = async (page: Page) => {
  const resultId = await page.evaluate(() => {
    const record = Object.keys(localStorage)
      .map((key) => localStorage.getItem(key))
      .find((value) => value?.includes('"resultId"'))
    return record ? (JSON.parse(record) as { resultId: string }).resultId : undefined
  })
  return resultId ? (await suite.service.store().results.listAnswers(resultId)).map((answer) => answer.value) : []
}

describe('the file input', () => {
  it('uploads files chosen with the button and dropped on the area, each with its progress, and sends them', async () => {
    const { page, c, errors } = await openFlow('files.json')
    const picker = c.root.locator('input[type="file"]')
    expect(await picker.getAttribute('capture')).toBe('environment')
    expect(await picker.getAttribute('accept')).toBe('.pdf, .png, .jpg, .jpeg, image/png, image/jpeg, application/pdf, image/jpg')
    expect(await picker.getAttribute('multiple')).not.toBeNull()
    const uploads = await holdUploads(page)

    await chooseFiles(page, [png('damage.png')])
    await expect.poll(() => c.root.getByRole('progressbar', { name: 'Uploading damage.png' }).isVisible()).toBe(true)
    await uploads.release()
    await c.root.getByText('damage.png uploaded').waitFor()

    await dropFiles(page, [{ name: 'invoice.pdf', type: 'application/pdf', base64: PDF.toString('base64') }])
    await expect.poll(() => c.root.getByRole('progressbar', { name: 'Uploading invoice.pdf' }).isVisible()).toBe(true)
    await uploads.release()
    await c.root.getByText('invoice.pdf uploaded').waitFor()

    // Refused before any byte leaves: the question takes pictures and PDFs only.
    await dropFiles(page, [{ name: 'notes.txt', type: 'text/plain', base64: Buffer.from('hello').toString('base64') }])
    await c.root.getByText('notes.txt is not a kind of file this question takes.').waitFor()
    expect(uploads.seen()).toBe(2)
    expect(await axeViolations(page)).toEqual([])

    await c.root.getByRole('button', { name: 'Send 2 files' }).click()
    await c.host('Thanks, we got your files.').waitFor()
    expect(await c.guestBubbles.allTextContents()).toEqual(['2 files uploaded'])
    const [answer] = await answersOf(page)
    expect(answer).toMatch(
      new RegExp(`^${suite.service.origin}/v1/files/[\\w-]+/damage\\.png, ${suite.service.origin}/v1/files/[\\w-]+/invoice\\.pdf$`),
    )
    const served = await fetch(answer!.split(', ')[0]!)
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true)
    expect(errors).toEqual([])
  })

  it('after a network failure, retries the same file without choosing it again', async () => {
    const { page, c } = await openFlow('files.json')
    const uploads = await holdUploads(page)
    let pickers = 0
    page.on('filechooser', () => pickers++)
    uploads.fail(1)
    await chooseFiles(page, [png('damage.png')])
    await c.root.getByText('damage.png could not be uploaded.').waitFor()
    expect(await c.root.getByRole('button', { name: 'Send 0 files' }).isDisabled()).toBe(true)
    expect(await axeViolations(page)).toEqual([])

    await c.root.getByRole('button', { name: 'Retry uploading damage.png' }).click()
    await uploads.release()
    await c.root.getByText('damage.png uploaded').waitFor()
    expect(pickers).toBe(1)
    await c.root.getByRole('button', { name: 'Send 1 file' }).click()
    await c.host('Thanks, we got your files.').waitFor()
    expect(await c.guestBubbles.allTextContents()).toEqual(['File uploaded'])
  })

  it('a reload keeps what was uploaded; the upload it cut off is gone, and the chat goes on', async () => {
    const { page, c } = await openFlow('files.json')
    const uploads = await holdUploads(page)
    await chooseFiles(page, [png('first.png')])
    await uploads.release()
    await c.root.getByText('first.png uploaded').waitFor()
    await chooseFiles(page, [png('second.png')])
    await expect.poll(() => c.root.getByRole('progressbar', { name: 'Uploading second.png' }).isVisible()).toBe(true)

    await page.unrouteAll({ behavior: 'ignoreErrors' })
    await page.reload()
    await c.root.getByText('first.png uploaded').waitFor()
    expect(await c.root.getByText('second.png').count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    await c.root.getByRole('button', { name: 'Send 1 file' }).click()
    await c.host('Thanks, we got your files.').waitFor()
    const [answer] = await answersOf(page)
    expect(answer).toMatch(/\/v1\/files\/[\w-]+\/first\.png$/)
  })

  it('on a phone: fits the screen, and one file is the answer as soon as it is uploaded', async () => {
    const { page, c, errors } = await openFlow('file-single.json', { width: 390, height: 844 })
    const button = c.root.getByRole('button', { name: 'Choose a file' })
    const box = (await button.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(390)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(await c.root.getByRole('button', { name: 'Skip' }).count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    // Keyboard: the file button takes focus and opens the picker with Enter.
    const chooser = page.waitForEvent('filechooser')
    await button.press('Enter')
    await (await chooser).setFiles([png('receipt.png')])
    await c.host('Thanks, we got your files.').waitFor()
    expect(await c.guestBubbles.allTextContents()).toEqual(['File uploaded'])
    expect(errors).toEqual([])
  })

  it('an optional input can be skipped', async () => {
    const { c } = await openFlow('files.json')
    await c.root.getByRole('button', { name: 'Skip' }).click()
    await c.host('Thanks, we got your files.').waitFor()
    expect(await c.guestBubbles.allTextContents()).toEqual(['Skip'])
  })
})
