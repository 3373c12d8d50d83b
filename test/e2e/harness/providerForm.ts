import type { Locator, Page } from 'playwright-core'
import type { PageGlobals } from './browser'
import { eventually } from '../../support/poll'

// The provider settings dialog, driven with real clicks as the chat e2e tests set a model up.

export interface ProviderForm {
  kind: 'openai-compatible' | 'anthropic' | 'ollama'
  name: string
  baseUrl: string
  /** Left empty when absent (Ollama's form has no key field at all). */
  apiKey?: string
  models: { id: string; contextWindow: number; maxOutput: number }[]
}

/** The scripted server as the OpenAI-compatible provider "Scripted", with one model. */
export const scriptedProviderForm = (
  baseUrl: string,
  apiKey: string,
  model: ProviderForm['models'][number]
): ProviderForm => ({
  kind: 'openai-compatible',
  name: 'Scripted',
  baseUrl,
  apiKey,
  models: [model]
})

/** Opens the settings dialog from the chat and returns it. */
export async function openProviderSettings(page: Page): Promise<Locator> {
  await page.getByTestId('open-provider-settings').click()
  const dialog = page.getByTestId('provider-settings')
  await dialog.waitFor()
  return dialog
}

/** Opens the settings dialog and types a new provider into it, unsaved; returns the dialog. */
export async function fillProviderForm(page: Page, form: ProviderForm): Promise<Locator> {
  const dialog = await openProviderSettings(page)
  await dialog.getByTestId('provider-kind').selectOption(form.kind)
  await dialog.getByTestId('provider-name').fill(form.name)
  await dialog.getByTestId('provider-base-url').fill(form.baseUrl)
  if (form.apiKey !== undefined) await dialog.getByTestId('provider-api-key').fill(form.apiKey)
  for (const model of form.models) {
    // "Add model" appends an empty row: fill the last one.
    await dialog.getByTestId('provider-model-add').click()
    await dialog.getByTestId('provider-model-id').last().fill(model.id)
    await dialog.getByTestId('provider-model-window').last().fill(String(model.contextWindow))
    await dialog.getByTestId('provider-model-max-output').last().fill(String(model.maxOutput))
  }
  return dialog
}

/** Saves the provider in the dialog and waits for the dialog to confirm it. */
export async function saveProvider(dialog: Locator): Promise<void> {
  await dialog.getByTestId('provider-save').click()
  await dialog.getByTestId('provider-saved').waitFor()
}

/** Picks `modelId` as the default model in the dialog and waits until the select shows it. */
export async function chooseDefaultModel(dialog: Locator, modelId: string): Promise<void> {
  const select = dialog.getByTestId('default-model-select')
  const option = select.locator('option', { hasText: modelId })
  await select.selectOption((await option.getAttribute('value'))!)
  await eventually(() => select.inputValue()).toContain(modelId)
}

/** Closes the settings dialog and waits until it is gone. */
export async function closeProviderSettings(dialog: Locator): Promise<void> {
  await dialog.getByTestId('provider-settings-close').click()
  await dialog.waitFor({ state: 'detached' })
}

/** Adds the provider through the dialog, makes `form.models[0]` the default and closes it. */
export async function configureProvider(page: Page, form: ProviderForm): Promise<void> {
  const dialog = await fillProviderForm(page, form)
  await saveProvider(dialog)
  await chooseDefaultModel(dialog, form.models[0]!.id)
  await closeProviderSettings(dialog)
}

/** The settings main has stored, read through the page's own `window.api` (null on failure). */
export async function savedSettings(page: Page) {
  const settings = await page.evaluate(() => (globalThis as PageGlobals).api.settings.get())
  return settings.ok ? settings.data : null
}
