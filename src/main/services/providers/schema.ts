/** The settings input schemas live in src/shared/providers.ts (the IPC contract uses them). */
export {
  ProviderInputSchema,
  type ModelInput,
  type ProviderInput,
  type ProviderPatch
} from '@shared/providers'
