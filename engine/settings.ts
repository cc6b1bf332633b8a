/**
 * The names of the hub's own settings (HubStore.claimSetting / getSetting): values a hub makes
 * once and keeps, shared by every process that serves it.
 */

/** The key that signs client-prompt request states (engine/runs/prompt-state.ts): 32 random bytes, hex. */
export const PROMPT_KEY_SETTING = 'prompt_key';
