/// <reference types="vite/client" />
interface ImportMetaEnv {
  readonly VITE_TRIAL_ENDPOINT?: string;
  readonly VITE_LOST_KEY_ENDPOINT?: string;
  readonly VITE_ODDS_API_HOST?: string;
}
